#!/usr/bin/env bash
# Builds the fuzz targets that need the whole library (tests/fuzz/CMakeLists.txt:
# the SBML importer and the C ABI's model-from-text path) with clang,
# libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer into
# build-fuzz-lib/ (CMake option ODESENS_FUZZ), then runs each for SECONDS
# (default 60). Exits non-zero on the first target with a crash, leak,
# timeout, memory blow-up or sanitizer report; the reproducer is left in
# build-fuzz-lib/artifacts/TARGET/.
#
#   tests/fuzz/run_fuzz_lib.sh [SECONDS] [TARGET...]
#
# Seeds, read in place (never copied into the repository): the SBML test
# suite's models and the real SBML and .ode models of ../shared (or
# $ODESENS_SHARED_DIR), the models of tests/sbml/models and the small
# hand-written seeds of tests/fuzz/corpus*. Files longer than the largest
# input (-max_len) are left out rather than cut into malformed XML.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(sbml_import_fuzzer capi_model_fuzzer)
out=build-fuzz-lib
shared=${ODESENS_SHARED_DIR:-../shared}
max_len=65536
jobs=$(nproc 2>/dev/null || echo 2)

if [ ! -f "$out/CMakeCache.txt" ]; then
  # -O1: a fuzzing run is many short executions; -O0 halves their number and
  # -O2 doubles the build time.
  cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
        -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCMAKE_C_COMPILER="${FUZZ_CC:-clang}" \
        -DCMAKE_CXX_COMPILER="${FUZZ_CXX:-clang++}" -DODESENS_FUZZ=ON \
        -DODESENS_BUILD_TESTS=OFF -DODESENS_BUILD_BENCHMARKS=OFF >/dev/null
fi
cmake --build "$out" -j"$jobs" --target "${targets[@]}"

# Symbolic links to the seed files no longer than max_len.
link_seeds() {  # DIR FILE...
  local dir=$1 file
  shift
  rm -rf "$dir"
  mkdir -p "$dir"
  for file in "$@"; do
    [ -f "$file" ] && [ "$(stat -c %s "$file")" -le "$max_len" ] || continue
    ln -s "$(realpath "$file")" "$dir/$(echo "${file#./}" | tr '/' '_')"
  done
}
shopt -s nullglob
sbml_seeds=(tests/fuzz/corpus_sbml/*.xml tests/sbml/models/*.xml "$shared"/models/sbml/*.xml)
ode_seeds=(tests/fuzz/corpus/*.ode "$shared"/models/ode/*.ode)
suite_seeds=("$shared"/sbml-test-suite/cases/*/*-sbml.xml
             "$shared"/sbml-test-suite/cases-2/*/*-sbml.xml)
link_seeds "$out/seeds/sbml_import_fuzzer" "${sbml_seeds[@]}" "${suite_seeds[@]}"
# The C ABI target reads both formats; the suite's 1161 cases would take
# its whole run to load, and the importer has its own target.
link_seeds "$out/seeds/capi_model_fuzzer" "${sbml_seeds[@]}" "${ode_seeds[@]}"
cat tests/fuzz/sbml.dict >"$out/sbml_import_fuzzer.dict"
cat tests/fuzz/sbml.dict tests/fuzz/ode.dict >"$out/capi_model_fuzzer.dict"

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The slow unwinder on malloc: libsbml is built without frame pointers, and
# the fast one stops inside it, short of the frame (SBMLReader::readInternal)
# that tests/lsan.supp names for libsbml's own leaks.
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
for target in "${targets[@]}"; do
  corpus="$out/corpus/$target"  # what the run adds, kept for the next run
  artifacts="$out/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  echo "fuzz: running $target for ${seconds}s"
  status=0
  "$out/bin/$target" "$corpus" "$out/seeds/$target" -dict="$out/$target.dict" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" >"$out/$target.log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 80 "$out/$target.log" >&2
    echo "fuzz: $target FAILED (status $status); log in $out/$target.log," \
         "reproducer in $artifacts/" >&2
    exit "$status"
  fi
  grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$out/$target.log" || true
  echo "fuzz: $target: no findings in ${seconds}s"
done
