#!/usr/bin/env bash
# CI's proof of the Debian package: builds it (scripts/package.sh), installs it with apt,
# and from the installed files alone, in a temporary directory outside the source tree,
#  1. runs the README's runtime workflow on a copy of examples/tensorlite: dlfl instrument,
#     a build with `dlfl config` flags, dlfl collect --runtime, dlfl rank (and again with the
#     listener compiled from source, `dlfl config --gtest-cmake`); then its gcov
#     workflow on the same copy (a --coverage build, dlfl collect, dlfl rank);
#  2. runs the pytest plugin (its pytest11 entry point: no -p, no PYTHONPATH) on a copy of
#     the bundled pybind11 extension tests/pyext, built instrumented by the installed
#     `python3 -m dlfl_pytest.build`, and ranks its seeded C++ fault;
#  3. checks that `man dlfl-rank` renders without warnings and that the bash and zsh
#     completions load and complete `dlfl rank --formula`;
# then removes the package, whatever happened (it refuses to start when dlfl is already
# installed, so it never removes a dlfl it did not install).
#   scripts/check-package.sh [BUILD_DIR]   (default: build-release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build-release}")  # absolute: apt reads a bare name as a package
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
say() { echo "== check-package: $*"; }
fail() { echo "check-package: FAIL: $*" >&2; exit 1; }

if dpkg-query -W -f='${Status}' dlfl 2>/dev/null | grep -q 'install ok installed'; then
  fail "a dlfl package is already installed; remove it first (apt-get remove dlfl)"
fi
"$root/scripts/install-deps.sh" --only man-db zsh bash pybind11-dev python3-dev python3-setuptools lintian
start=$SECONDS
deb=$("$root/scripts/package.sh" "$build" | tail -n 1)
say "built $deb in $((SECONDS - start)) s"
# Lintian: no error or warning but the tags cmake/debian/lintian-overrides explains.
lintian --fail-on error,warning "$deb" 2>/dev/null ||
  fail "lintian reports on $deb: $(lintian "$deb" 2>/dev/null | head -n 5)"

work=$(mktemp -d /tmp/dlfl-package-check.XXXXXX)
cleanup() {
  $sudo apt-get remove -y -qq dlfl >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$deb" >/dev/null
# Nothing of the source or build tree may serve the checks below.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
unset PYTHONPATH DLFL_RT_LIB PYTEST_PLUGINS PYTEST_ADDOPTS
cd "$work"
[ "$(command -v dlfl)" = /usr/bin/dlfl ] || fail "dlfl on PATH is $(command -v dlfl), not the package's"
dlfl --version
case "$(dlfl config --cflags)" in
  *-I/usr/include*) ;;
  *) fail "dlfl config --cflags does not name /usr/include: $(dlfl config --cflags)" ;;
esac

say "1. runtime workflow on examples/tensorlite (README: dlfl instrument, build, collect --runtime, rank)"
start=$SECONDS
cp -r "$root/examples/tensorlite" tensorlite
(cd tensorlite &&
  cmake -S . -B build -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DTENSORLITE_FAULT=grid_ceil_div >/dev/null &&
  cmake --build build -j2 >/dev/null &&
  dlfl instrument -q -j2 -p build --root . --out instr --exclude tests/ >/dev/null &&
  cmake -S instr -B instr/build -G Ninja -DTENSORLITE_FAULT=grid_ceil_div \
    -DCMAKE_CXX_FLAGS="$(dlfl config --cflags)" -DCMAKE_EXE_LINKER_FLAGS="$(dlfl config --libs --gtest)" >/dev/null &&
  cmake --build instr/build -j2 >/dev/null &&
  dlfl collect --runtime --gtest instr/build/tensorlite_tests -o sfl.dlfl &&
  dlfl rank sfl.dlfl --formula dstar2 --top 3 --format csv >ranking.csv) ||
  fail "the runtime workflow failed"
head -n 4 tensorlite/ranking.csv
# The seeded fault (examples/tensorlite/faults/faults.json: grid_ceil_div) ranks first.
sed -n 2p tensorlite/ranking.csv | grep -q 'src/launch_geometry.cpp,19,' ||
  fail "the seeded fault src/launch_geometry.cpp:19 is not ranked first"
say "runtime workflow: $((SECONDS - start)) s"

say "1a. the listener compiled from source by the installed CMake script (dlfl config --gtest-cmake)"
start=$SECONDS
# shellcheck disable=SC2046  # the arguments are words by design
(cd tensorlite &&
  cmake -S instr -B instr/build-src -G Ninja -DTENSORLITE_FAULT=grid_ceil_div $(dlfl config --gtest-cmake) \
    -DCMAKE_CXX_FLAGS="$(dlfl config --cflags)" -DCMAKE_EXE_LINKER_FLAGS="$(dlfl config --libs)" >configure-src.log &&
  grep -q 'dlfl: GoogleTest listener compiled into tensorlite_tests' configure-src.log &&
  cmake --build instr/build-src -j2 >/dev/null &&
  dlfl collect --runtime --gtest instr/build-src/tensorlite_tests -o sfl-src.dlfl &&
  dlfl rank sfl-src.dlfl --formula dstar2 --top 3 --format csv >ranking-src.csv) ||
  fail "the workflow with the listener compiled from source failed"
cmp -s tensorlite/ranking.csv tensorlite/ranking-src.csv ||
  fail "the listener compiled from source gives another ranking than the prebuilt one"
say "listener from source: $((SECONDS - start)) s"

# The tests around the seeded fault only: one gcov process per test costs minutes for all 437.
say "1b. per-test gcov workflow on examples/tensorlite (README: --coverage build, dlfl collect, rank)"
start=$SECONDS
(cd tensorlite &&
  cmake -S . -B build-cov -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=--coverage \
    -DTENSORLITE_FAULT=grid_ceil_div >/dev/null &&
  cmake --build build-cov -j2 >/dev/null &&
  dlfl collect --gtest build-cov/tensorlite_tests --source-root . --exclude '*/tests/*' -j2 -q -o gcov.dlfl \
    --filter 'Cases/ComputeGrid*:ComputeGridErrors*:ElementwiseGrid*:TileSpan*:Sgd*' &&
  dlfl rank gcov.dlfl --formula dstar2 --top 3 --format csv >ranking-gcov.csv) ||
  fail "the gcov workflow failed"
sed -n 2p tensorlite/ranking-gcov.csv | grep -q 'src/launch_geometry.cpp,19,' ||
  fail "gcov: the seeded fault src/launch_geometry.cpp:19 is not ranked first: $(cat tensorlite/ranking-gcov.csv)"
say "gcov workflow: $((SECONDS - start)) s"

say "2. pytest plugin (entry point) on tests/pyext, built instrumented with python3 -m dlfl_pytest.build"
start=$SECONDS
cp -r "$root/tests/pyext" pyext
(cd pyext &&
  /usr/bin/python3 -m dlfl_pytest.build . --inplace -j 2 >/dev/null &&
  { PYTHONPATH=. PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider \
      --dlfl-out run --dlfl-cov seeded >pytest.log || true; } &&
  grep -q "2 failed" pytest.log &&
  dlfl collect --pytest-run run -o sfl.dlfl &&
  dlfl rank sfl.dlfl --top 1 --format csv >ranking.csv) || {
  cat pyext/pytest.log 2>/dev/null || true
  fail "the pytest workflow failed"
}
fault=$(grep -n FAULT pyext/seeded/native.cpp | grep return | cut -d: -f1)
sed -n 2p pyext/ranking.csv | grep -q "seeded/native.cpp,$fault," ||
  fail "the seeded fault seeded/native.cpp:$fault is not ranked first: $(cat pyext/ranking.csv)"
say "pytest workflow: $((SECONDS - start)) s"

say "3. man pages and completion"
warnings=$(MANWIDTH=80 man --warnings -l /usr/share/man/man1/dlfl-rank.1.gz 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man dlfl-rank warns: $warnings"
MANWIDTH=80 man dlfl-rank | grep -q -- "--formula" || fail "man dlfl-rank does not render --formula"
bash_script=/usr/share/bash-completion/completions/dlfl
zsh_script=/usr/share/zsh/vendor-completions/_dlfl
bash -n "$bash_script" && zsh -n "$zsh_script" || fail "a completion script does not parse"
offered=$(bash -c "source $bash_script; COMP_WORDS=(dlfl rank --formula ''); COMP_CWORD=3; _dlfl; echo \"\${COMPREPLY[*]}\"")
case " $offered " in
  *" ochiai "*) ;;
  *) fail "bash completion of 'dlfl rank --formula' offers '$offered'" ;;
esac
say "passed"
