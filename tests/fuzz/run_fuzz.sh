#!/usr/bin/env bash
# Builds the .ode parser fuzzer (tests/fuzz/ode_parser_fuzzer.cpp) with clang's
# libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer into
# build-fuzz/, then runs it for SECONDS (default 60) on the seed corpus
# (tests/fuzz/corpus, plus ../shared/models/ode when present). Exits non-zero on
# any crash, leak, timeout or sanitizer report.
#
#   tests/fuzz/run_fuzz.sh [SECONDS]
# Needs clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
out=build-fuzz
cxx=${FUZZ_CXX:-clang++}
mkdir -p "$out/obj" "$out/corpus"

sleef_include=$(dirname "$(find /usr/include -name sleef.h -print -quit)")
flags=(-std=c++17 -g -O1 -fno-omit-frame-pointer -ffp-contract=off
       -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -Isrc -Iinclude "-I$sleef_include")
# The expression engine and the .ode parser without the Model layer
# (expr_model.cpp and ode_loader.cpp need the rest of the library), the
# number formatting of their messages, plus the fuzz target.
sources=(src/core/number_text.cpp)
for src in src/expr/*.cpp src/sources/ode/*.cpp; do
  case "$src" in
    */expr_model.cpp | */ode_loader.cpp) ;;
    *) sources+=("$src") ;;
  esac
done
sources+=(tests/fuzz/ode_parser_fuzzer.cpp)

objects=()
for src in "${sources[@]}"; do
  obj="$out/obj/$(basename "${src%.cpp}").o"
  extra=()
  case "$src" in
    *lanes_avx2.cpp) extra=(-mavx2 -mfma) ;;
    *lanes_avx512.cpp) extra=(-mavx512f -mavx2 -mfma) ;;
  esac
  # Rebuild when the source or any header of the engine is newer.
  if [ ! -f "$obj" ] || [ -n "$(find "$src" src/expr src/sources/ode include/odesens -newer "$obj" -name '*.[ch]pp' -o -newer "$obj" -name '*.def' | head -n 1)" ]; then
    echo "fuzz: compiling $src"
    "$cxx" "${flags[@]}" "${extra[@]}" -c "$src" -o "$obj"
  fi
  objects+=("$obj")
done
"$cxx" -fsanitize=fuzzer,address,undefined "${objects[@]}" -lsleef -o "$out/ode_parser_fuzzer"

corpora=("$out/corpus" tests/fuzz/corpus)
[ -d ../shared/models/ode ] && corpora+=(../shared/models/ode)
echo "fuzz: running for ${seconds}s"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1
status=0
"$out/ode_parser_fuzzer" "${corpora[@]}" -dict=tests/fuzz/ode.dict -max_total_time="$seconds" \
  -max_len=4096 -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$out/" >"$out/fuzz.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 80 "$out/fuzz.log" >&2
  echo "fuzz: FAILED (status $status); log in $out/fuzz.log, reproducer in $out/" >&2
  exit "$status"
fi
grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$out/fuzz.log" || true
echo "fuzz: no findings in ${seconds}s"
