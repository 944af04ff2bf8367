#!/usr/bin/env bash
# Sets up and builds odesens, then computes the sensitivities of Chua's
# circuit (PBS paper, section 6) with four methods and prints
# how they compare.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
echo
echo "== S(t) = dx/dp of Chua's circuit on [0, 10]: four methods, each at its default tolerances =="
build/bin/odesens compare builtin:chua --methods cvodes_fsa,cvodes_asa,pbsr,exp --tout 0:10:101
echo
echo "Full output of one method: build/bin/odesens run builtin:chua --method cvodes_fsa --tout 0:10:101"
