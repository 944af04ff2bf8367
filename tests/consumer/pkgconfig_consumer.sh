#!/usr/bin/env bash
# Builds consumer.c against an installed odesens with pkg-config only, the
# way a C user without CMake would, and runs it; then the same for the C++
# API (consumer.cpp, odesens-cpp.pc):
#
#   cc consumer.c $(pkg-config --cflags --libs odesens) -lm
#   c++ -std=c++17 consumer.cpp $(pkg-config --cflags --libs odesens-cpp)
#
#   tests/consumer/pkgconfig_consumer.sh PREFIX WORK_DIR
# PREFIX is the install prefix, WORK_DIR a scratch folder. Exits non-zero
# on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(cd "${1:?usage: pkgconfig_consumer.sh PREFIX WORK_DIR}" && pwd)
work=${2:?usage: pkgconfig_consumer.sh PREFIX WORK_DIR}
mkdir -p "$work"

pc=$(find "$prefix" -name odesens.pc -path '*/pkgconfig/*' -print -quit)
[ -n "$pc" ] || { echo "pkgconfig_consumer: no odesens.pc under $prefix" >&2; exit 1; }
PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir odesens)

echo "pkg-config --cflags --libs odesens: $(pkg-config --cflags --libs odesens)"
# shellcheck disable=SC2046 # word splitting of pkg-config's output is intended
${CC:-cc} -std=c11 -Wall -o "$work/consumer_c_pc" "$here/consumer.c" \
  $(pkg-config --cflags --libs odesens) -lm
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/consumer_c_pc"
# The program must have run against the installed libodesens.so.
# (ldd read whole first: an early exit of grep -q would SIGPIPE it under pipefail.)
loaded=$(LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$work/consumer_c_pc")
line=$(grep -F "libodesens.so" <<<"$loaded" || true)
grep -qF "$(cd "$libdir" && pwd -P)" <<<"$line" ||
  { echo "pkgconfig_consumer: consumer_c_pc did not load $libdir/libodesens.so" >&2; exit 1; }

echo "pkg-config --cflags --libs odesens-cpp: $(pkg-config --cflags --libs odesens-cpp)"
# shellcheck disable=SC2046
${CXX:-c++} -std=c++17 -Wall -o "$work/consumer_cpp_pc" "$here/consumer.cpp" \
  $(pkg-config --cflags --libs odesens-cpp)
"$work/consumer_cpp_pc"
