#!/usr/bin/env bash
# Installs dlfl's build and test dependencies from Debian 12 packages (nothing else is
# downloaded). Skips apt when every package is already installed.
#
#   scripts/install-deps.sh                     dlfl's own
#   scripts/install-deps.sh --only PACKAGE...   only these (scripts/realbugs.sh: a study's projects)
set -euo pipefail
packages=(
  cmake ninja-build g++ clang-14 clang ccache pkg-config
  libeigen3-dev libfmt-dev libcli11-dev nlohmann-json3-dev libpugixml-dev libxxhash-dev libsimdjson-dev
  libboost-dev libboost-graph-dev libboost-math-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-pytest xz-utils zlib1g-dev
  python3-torch libtorch-dev python3-coverage python3-pytest-xdist python3-numpy
  pybind11-dev python3-dev python3-setuptools  # C++ extensions of Python (docs/pytorch-extension.md)
  python3-yaml  # scripts/check-citation.py reads CITATION.cff
  time
  man-db zsh  # the generated man pages and completions are checked (tests/cli/generated_docs_test.cpp)
  python3-venv python3-pip  # `pip install ./python` into a venv (tests/python/package_check.py)
  dpkg-dev file lintian  # the Debian package: dpkg-shlibdeps for Depends, CPack's ELF check, lintian
  libclang-14-dev libclang-cpp14-dev llvm-14-dev
  libclang-rt-14-dev  # ASan/UBSan/libFuzzer runtimes: scripts/sanitize.sh, scripts/fuzz.sh
  libncurses-dev libzstd-dev zlib1g-dev libedit-dev libxml2-dev libffi-dev
  lcov chromium
  bear  # the compilation database of a BugsC++ defect's mutation analysis (bugset reproduce --mbfl)
  openmpi-bin libopenmpi-dev
  slurmctld slurmd slurm-client munge  # the one-node Slurm of the Slurm tests (scripts/slurm-test-cluster.sh)
)
if [ "${1:-}" = "--only" ]; then
  shift
  packages=("$@")
  for p in "${packages[@]}"; do
    # Debian Policy 5.6.7's package names: nothing else reaches apt's command line.
    [[ $p =~ ^[a-z0-9][a-z0-9+.-]+$ ]] || { echo "install-deps.sh: error: '$p' is not a Debian package name" >&2; exit 2; }
  done
elif [ $# -gt 0 ]; then
  echo "install-deps.sh: error: unknown argument '$1' (no argument, or --only PACKAGE...)" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
