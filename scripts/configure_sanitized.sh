#!/usr/bin/env bash
# Configures the sanitized tree DIR (default build-san/) unless it is
# configured already: clang, AddressSanitizer + UndefinedBehaviorSanitizer,
# the tests and the libFuzzer targets (CMake options ODESENS_SANITIZE and
# ODESENS_FUZZ). scripts/test.sh runs the tests in it and
# tests/fuzz/run_fuzz.sh the fuzzers, so one sanitizer build serves both.
#
# -O1: ASan's recommended level; the tests run about twice as fast as at
# -O0 and it still reports on every instrumented access. Assertions stay on
# (no NDEBUG).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-san}
[ -f "$dir/CMakeCache.txt" ] && exit 0
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_C_COMPILER="${SAN_CC:-clang}" -DCMAKE_CXX_COMPILER="${SAN_CXX:-clang++}" \
      -DCMAKE_C_FLAGS_DEBUG="-O1" -DCMAKE_CXX_FLAGS_DEBUG="-O1" \
      -DODESENS_SANITIZE=ON -DODESENS_FUZZ=ON -DODESENS_TEST_SHARDS=8 -DODESENS_BUILD_BENCHMARKS=OFF >/dev/null
