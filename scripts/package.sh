#!/usr/bin/env bash
# Builds dlfl's Debian package: a build tree configured for /usr (RelWithDebInfo, the
# flags of scripts/test.sh's build, so that ccache serves what that build compiled; CPack
# strips the binaries), then `cpack -G DEB`. Prints the .deb's path on the last line.
#   scripts/package.sh [BUILD_DIR]   (default: build-release)
# Then: apt install ./dlfl_*.deb (docs/install.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build-release}")  # absolute: apt reads a bare name as a package
# dpkg-shlibdeps computes Depends; file tells CPack which installed files are ELF.
"$root/scripts/install-deps.sh" --only dpkg-dev file
cmake -S "$root" -B "$build" -G Ninja -DDLFL_WARNINGS_AS_ERRORS=ON -DDLFL_BUILD_TESTS=OFF \
  -DDLFL_BUILD_BENCHMARKS=OFF -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
cmake --build "$build" -j2
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/dlfl_*.deb | head -n 1)
echo "$deb"
