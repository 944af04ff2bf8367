#!/usr/bin/env bash
# Rewrites the option tables of docs/methods/*.md (between
# <!-- options:begin --> and <!-- options:end -->) from the methods'
# declarations, as `odesens methods --markdown ID` prints them. The ctest
# test test_doc_option_tables fails until they are current.
#   scripts/update_option_tables.sh [path/to/odesens]   (default build/bin/odesens)
set -euo pipefail
cd "$(dirname "$0")/.."
odesens=${1:-build/bin/odesens}
if [ ! -x "$odesens" ]; then
  echo "update_option_tables.sh: $odesens not found; build it first:" \
       "cmake --build build --target odesens_cli" >&2
  exit 2
fi
cmake -DODESENS="$odesens" -DDOCS=docs/methods -DUPDATE=ON -P tests/cli/check_option_tables.cmake
