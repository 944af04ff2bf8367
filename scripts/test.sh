#!/usr/bin/env bash
# Sets up and builds odesens, runs the test suites (the Python module's
# pytest files among them, label `python`), then builds the
# sanitized tree build-san/ (clang, AddressSanitizer +
# UndefinedBehaviorSanitizer, scripts/configure_sanitized.sh) and runs the
# suites there too, then runs the tests of models shared by threads (model,
# expression, thread and ensemble tests) under ThreadSanitizer
# (build-tsan/), and finally runs the libFuzzer targets built in
# build-san/ (the .ode parser, the SBML importer and the C ABI's
# model-from-text path; tests/fuzz/run_fuzz.sh) for 60 seconds each. Both
# test runs include the hostile-input suite (ctest -L hostile,
# tests/hostile/). Tests labelled `slow` (the full containment matrix of
# bounds_fsa and bounds_asa) are left out: ctest --test-dir build -L slow runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# Wall time of every stage, printed at the end (where CI's time goes).
stage_start=$SECONDS
stage_name="setup and Release build"
end_stage() {  # NEXT_STAGE_NAME
  printf '%-58s %5d s\n' "$stage_name" $((SECONDS - stage_start)) >>"$logs/stages.txt"
  stage_name=$1
  stage_start=$SECONDS
}

./scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
end_stage "tests (Release)"

echo "== tests (Release) =="
# ODESENS_LONG_TESTS: odesd against cvodes_fsa on every SBML model (about half
# a minute), in Release only.
ODESENS_LONG_TESTS=1 ctest --test-dir build --output-on-failure -j"$jobs" -LE slow |
  tee "$logs/release.log"

end_stage "build (clang, ASan + UBSan, tests and fuzzers)"
echo "== tests (AddressSanitizer + UndefinedBehaviorSanitizer) =="
./scripts/configure_sanitized.sh build-san
cmake --build build-san -j"$jobs"
end_stage "tests (ASan + UBSan)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-san --output-on-failure -j"$jobs" -LE slow | tee "$logs/asan.log"

end_stage "build and tests (TSan)"
echo "== tests of shared models (ThreadSanitizer) =="
if [ ! -f build-tsan/CMakeCache.txt ]; then
  # RelWithDebInfo: at -O1 this stage took 326 s against 321 s (a shorter
  # build, longer tests).
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DODESENS_SANITIZE_THREAD=ON \
        -DODESENS_BUILD_BENCHMARKS=OFF -DODESENS_TEST_SHARDS=4 >/dev/null
fi
tsan_programs=(test_threads test_model test_expr test_ensemble)
cmake --build build-tsan -j"$jobs" --target "${tsan_programs[@]}"
# Serial BLAS here: OpenBLAS' own threads are not instrumented.
TSAN_OPTIONS=halt_on_error=1 OPENBLAS_NUM_THREADS=1 \
  ctest --test-dir build-tsan --output-on-failure -j"$jobs" \
        -L "^($(IFS='|'; echo "${tsan_programs[*]}"))\$" | tee "$logs/tsan.log"

end_stage "fuzzing (3 targets x 60 s of one core each, on two)"
echo "== fuzzing the .ode parser, the SBML importer and the C ABI (60 s each) =="
./tests/fuzz/run_fuzz.sh 60

end_stage ""
echo "== wall time by stage =="
cat "$logs/stages.txt"

# One closing line over both test runs (each ctest run already stopped the
# script on a failure, so this line only ever reports success).
grep -hoE "[0-9]+ tests failed out of [0-9]+" "$logs"/*.log |
  awk '{ failed += $1; total += $6 } END { printf "%d passed, %d failed\n", total - failed, failed }'

