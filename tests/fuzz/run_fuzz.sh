#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (the .ode parser, the SBML
# importer, the C ABI's model-from-text path) in the sanitized tree
# build-san/ (clang, ASan + UBSan, CMake options ODESENS_SANITIZE and
# ODESENS_FUZZ; scripts/test.sh runs the sanitized tests from the same
# tree), then gives each SECONDS (default 60) on two cores. Exits
# non-zero when a target finds a crash, leak, timeout, memory blow-up or
# sanitizer report; its reproducer is left in build-san/fuzz/artifacts/TARGET/.
#
#   tests/fuzz/run_fuzz.sh [SECONDS] [TARGET...]
#
# Needs clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev).
# Seeds, read in place (never copied into the repository): every tenth model
# of the SBML test suite, the real SBML and .ode models of ../shared (or
# $ODESENS_SHARED_DIR), the models of tests/sbml/models and the small
# hand-written seeds of tests/fuzz/corpus*. Files longer than a target's
# largest input (-max_len) are left out rather than cut into malformed text.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ode_parser_fuzzer sbml_import_fuzzer capi_model_fuzzer)
tree=build-san
out=$tree/fuzz
shared=${ODESENS_SHARED_DIR:-../shared}
jobs=$(nproc 2>/dev/null || echo 2)

./scripts/configure_sanitized.sh "$tree"
cmake --build "$tree" -j"$jobs" --target "${targets[@]}"

# Symbolic links to the seed files no longer than MAX_LEN, made by one
# find and bash built-ins: a stat, realpath and tr per file took 37 s for
# the test suite's 2300 models.
link_seeds() {  # DIR MAX_LEN FILE...
  local dir=$1 max_len=$2 file name
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir"
  (($#)) || return 0
  while IFS= read -r -d '' file; do
    name=${file//\//_}
    while [[ $name == [._]* ]]; do name=${name:1}; done  # no hidden names
    [[ $file == /* ]] || file=$PWD/${file#./}
    ln -s "$file" "$dir/$name"
  done < <(find "$@" -maxdepth 0 -type f -size -$((max_len + 1))c -print0)
}
shopt -s nullglob
sbml_seeds=(tests/fuzz/corpus_sbml/*.xml tests/sbml/models/*.xml "$shared"/models/sbml/*.xml)
ode_seeds=(tests/fuzz/corpus/*.ode "$shared"/models/ode/*.ode)
all_suite_cases=("$shared"/sbml-test-suite/cases/*/*-sbml.xml
                 "$shared"/sbml-test-suite/cases-2/*/*-sbml.xml)
# Every tenth case of the test suite. All 1161 took the importer's whole
# run to load (12 a second under ASan: 98 s, not one mutation), and every
# case is imported under the sanitizers by the suite's own test anyway.
suite_seeds=()
for ((k = 0; k < ${#all_suite_cases[@]}; k += 10)); do suite_seeds+=("${all_suite_cases[k]}"); done
declare -A max_len dict
max_len[ode_parser_fuzzer]=4096
max_len[sbml_import_fuzzer]=65536
max_len[capi_model_fuzzer]=65536
dict[ode_parser_fuzzer]="tests/fuzz/ode.dict"
dict[sbml_import_fuzzer]="tests/fuzz/sbml.dict"
dict[capi_model_fuzzer]="tests/fuzz/sbml.dict tests/fuzz/ode.dict"
mkdir -p "$out"
link_seeds "$out/seeds/ode_parser_fuzzer" 4096 "${ode_seeds[@]}"
link_seeds "$out/seeds/sbml_import_fuzzer" 65536 "${sbml_seeds[@]}" "${suite_seeds[@]}"
# The C ABI target reads both formats; the suite's 1161 cases would take
# its whole run to load, and the importer has its own target.
link_seeds "$out/seeds/capi_model_fuzzer" 65536 "${sbml_seeds[@]}" "${ode_seeds[@]}"

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The slow unwinder on malloc: libsbml is built without frame pointers, and
# the fast one stops inside it, short of the frame (SBMLReader::readInternal)
# that tests/lsan.supp names for libsbml's own leaks.
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp

fuzz() {  # TARGET WORKER SECONDS: runs it, leaves its log in $out/TARGET.WORKER.log
  local target=$1 worker=$2 time=$3 corpus="$out/corpus/$1" artifacts="$out/artifacts/$1"
  mkdir -p "$corpus" "$artifacts"  # the corpus keeps what a run adds
  # shellcheck disable=SC2086
  cat ${dict[$target]} >"$out/$target.dict"
  "$tree/bin/$target" "$corpus" "$out/seeds/$target" -dict="$out/$target.dict" \
    -max_total_time="$time" -max_len="${max_len[$target]}" -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    -seed=$((worker + 1)) >"$out/$target.$worker.log" 2>&1
}
report() {  # TARGET WORKER SECONDS STATUS
  local target=$1 worker=$2 time=$3 status=$4 log="$out/$1.$2.log"
  if [ "$status" -ne 0 ]; then
    tail -n 80 "$log" >&2
    echo "fuzz: $target FAILED (status $status); log in $log," \
         "reproducer in $out/artifacts/$target/" >&2
    return "$status"
  fi
  grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$log" || true
  echo "fuzz: $target (worker $worker): no findings in ${time}s"
}

# One run per core of the CI machine (two): targets two at a time for
# SECONDS each; a target left alone in the last pair runs as two workers
# of SECONDS/2 on one corpus (each reloads what the other adds, libFuzzer's
# -reload), so it gets the same processor time and no core idles.
runs=()  # "TARGET WORKER SECONDS"
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  if ((i + 1 < ${#targets[@]})); then
    runs+=("${targets[i]} 0 $seconds" "${targets[i + 1]} 0 $seconds")
  else
    half=$(((seconds + 1) / 2))
    runs+=("${targets[i]} 0 $half" "${targets[i]} 1 $half")
  fi
done
failed=0
for ((i = 0; i < ${#runs[@]}; i += 2)); do
  pids=()
  for run in "${runs[@]:i:2}"; do
    read -r target worker time <<<"$run"
    echo "fuzz: running $target (worker $worker) for ${time}s"
    fuzz "$target" "$worker" "$time" &
    pids+=($!)
  done
  for k in 0 1; do
    read -r target worker time <<<"${runs[i + k]}"
    status=0
    wait "${pids[$k]}" || status=$?
    report "$target" "$worker" "$time" "$status" || failed=$status
  done
done
exit "$failed"
