#!/usr/bin/env bash
# Installs what odesens needs on Debian 12 (only what is missing), then
# configures and builds the Release tree in build/, and makes /usr/bin/python3
# find the Python module built there (scripts/install_python.sh). Idempotent:
# a second run with nothing changed installs nothing and rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkg-config python3 gfortran clang libclang-rt-14-dev
  libsundials-dev libopenblas-pthread-dev libsleef-dev libsuitesparse-dev
  libgtest-dev libgmock-dev libbenchmark-dev libsbml5-dev libxbyak-dev
  nlohmann-json3-dev libcli11-dev libhdf5-dev hdf5-tools libopenmpi-dev openmpi-bin
  libboost-dev libmpfr-dev libyaml-cpp-dev lld gnuplot-nox libceres-dev libnlopt-cxx-dev
  liblbfgsb-dev pybind11-dev python3-dev python3-numpy python3-scipy python3-matplotlib python3-pytest
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f build/CMakeCache.txt ]; then
  # Each GoogleTest program runs as 4 ctest tests (its shards) rather than
  # one per case: a start costs about 25 ms (the dynamic loader), about
  # 30 s of the test run over 1,600 cases. -DODESENS_TEST_SHARDS=0 gives
  # one ctest test per case (ctest -R CASE).
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DODESENS_TEST_SHARDS=4 >/dev/null
fi
cmake --build build -j"$jobs"
./scripts/install_python.sh
