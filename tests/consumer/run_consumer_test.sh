#!/usr/bin/env bash
# Installs a built odesens tree into PREFIX (emptied first) and uses it from
# outside, as a user would:
#   1. the installed layout (libraries, SONAME links, headers, tool, sources,
#      CMake package, pkg-config files) and the installed tool;
#   2. a CMake project (tests/consumer/CMakeLists.txt) with
#      find_package(odesens): a C++ program on odesens::odesens and a C
#      program on odesens::c;
#   3. a C program (and a C++ one) built with pkg-config only
#      (pkgconfig_consumer.sh).
# Prints every step that failed and exits non-zero if any did.
#
#   tests/consumer/run_consumer_test.sh PREFIX BUILD_DIR
# BUILD_DIR is a configured and built odesens tree (not an ASan build: the
# sanitizer runtime would be needed by every consumer). Scratch files go to
# PREFIX-work.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 INSTALL_PREFIX BUILD_DIR" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
prefix=$1
build=$2
work="${prefix%/}-work"
rm -rf "$prefix" "$work"
mkdir -p "$prefix" "$work"
prefix=$(cd "$prefix" && pwd)
work=$(cd "$work" && pwd)
build=$(cd "$build" && pwd) || { echo "no build tree at $2" >&2; exit 2; }

failed=()
# step NAME COMMAND...: runs COMMAND with its output in $work/NAME.log,
# shown in full when it fails.
step() {
  local name=$1
  shift
  echo "-- $name"
  if "$@" >"$work/$name.log" 2>&1; then
    sed 's/^/   /' "$work/$name.log" | tail -n 5
  else
    echo "FAILED: $name ($*)"
    sed 's/^/   | /' "$work/$name.log" | tail -n 60
    failed+=("$name")
  fi
}

step install cmake --install "$build" --prefix "$prefix"
if [ ${#failed[@]} -ne 0 ]; then
  echo "consumer test: installation failed, nothing else tried"
  exit 1
fi

config=$(find "$prefix" -name odesensConfig.cmake -print -quit)
libdir=$(dirname "$(find "$prefix" -name libodesens.a -print -quit)")
check_layout() {
  local missing=0 f
  for f in "$libdir/libodesens.a" "$libdir/libodesens.so" "$libdir/libodesens.so.0" \
           "$prefix/include/odesens.h" "$prefix/include/odesens/odesens.hpp" \
           "$prefix/include/odesens/version.hpp" \
           "$prefix/share/odesens/odesens.f90" "$prefix/share/odesens/ODESens.jl" \
           "$prefix/share/odesens/generated/odesens_raw.f90" \
           "$prefix/share/odesens/generated/odesens_raw.jl" \
           "$prefix/bin/odesens" "$config" "$(dirname "$config")/odesensConfigVersion.cmake" \
           "$(dirname "$config")/odesensTargets.cmake" "$libdir/pkgconfig/odesens.pc" \
           "$libdir/pkgconfig/odesens-cpp.pc"; do
    if [ -e "$f" ]; then echo "ok $f"; else echo "missing: $f"; missing=1; fi
  done
  if [ ! -L "$libdir/libodesens.so" ] || [ ! -L "$libdir/libodesens.so.0" ]; then
    echo "libodesens.so and libodesens.so.0 must be symbolic links"; missing=1
  fi
  # Read whole before matching: grep -q stopping early would make objdump
  # die of SIGPIPE, which pipefail reports as a failure.
  grep -q "SONAME *libodesens.so.0" <<<"$(objdump -p "$libdir/libodesens.so")" ||
    { echo "SONAME of libodesens.so is not libodesens.so.0"; missing=1; }
  # Xbyak is private to the library: consumers must not be asked for it.
  if grep -rqi xbyak "$(dirname "$config")"; then
    echo "the installed CMake package mentions Xbyak"; missing=1
  fi
  # Nothing installed may point back into the source or build tree.
  if grep -rlF "$build" "$(dirname "$config")" "$libdir/pkgconfig"; then
    echo "installed package files refer to the build tree $build"; missing=1
  fi
  return $missing
}
step layout check_layout
step installed_tool "$prefix/bin/odesens" methods

export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
step cmake_configure cmake -S "$here" -B "$work/cmake" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
step cmake_build cmake --build "$work/cmake"
step cmake_consumer_cpp "$work/cmake/consumer_cpp"
step cmake_consumer_c "$work/cmake/consumer_c"
step pkgconfig "$here/pkgconfig_consumer.sh" "$prefix" "$work/pkgconfig"

if [ ${#failed[@]} -ne 0 ]; then
  echo "consumer test: FAILED: ${failed[*]}"
  exit 1
fi
echo "consumer test: installed package at $prefix works (CMake and pkg-config consumers)"
