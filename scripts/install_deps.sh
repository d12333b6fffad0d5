#!/usr/bin/env bash
# Installs the Debian packages the build and tests need. Idempotent; silent when all are there.
set -euo pipefail
packages=(
  bazel-bootstrap              # Bazel 4.2.3, used offline (see tools/bazel_offline/)
  g++
  clang                        # the core is also built and tested with Clang (scripts/build_clang.sh)
  libgtest-dev                 # GoogleTest
  libbenchmark-dev             # Google Benchmark (//bench)
  librapidcheck-dev            # property tests
  libboost-dev
  libboost-program-options-dev # command-line parsing of the tools
  nlohmann-json3-dev           # JSON reports of the verifier
  libopenmpi-dev openmpi-bin   # Open MPI: the MPI executors and their mpirun tests
  libsimgrid-dev               # SimGrid SMPI: scripts/simulate.sh and its quick test
  python3                      # /usr/bin/python3: scripts/sim_merge.py (simulate.sh's ratio rows), its test
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
