#!/bin/sh
# Makes two git repositories for `dlfl bugset reproduce`'s handling of configure-time
# downloads (tests/lab/bench/bugset_reproduce_habits_test.cpp): DIR/dep, a header-only
# dependency, and DIR/clones/fetchy (fixture+fetchy), whose CMake fetches dep at
# configure time from https://example.invalid/dep.git (FetchContent), a URL no machine
# can reach, and whose tests are CTest commands. Tag `fix1` fixes bug #1 (twice() tripled)
# and brings the test that shows it.
# Usage: make_clones.sh DIR   (DIR must not exist)
set -eu
dir=$1
mkdir -p "$dir/dep" "$dir/clones/fetchy"
cfg() {
  git config user.name "Fixture Author"
  git config user.email fixture@example.org
  git config commit.gpgsign false
}
cd "$dir/dep"
git init -q -b main .
cfg
mkdir -p include
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(dep LANGUAGES CXX)
add_library(dep INTERFACE)
target_include_directories(dep INTERFACE include)
EOF
cat > include/dep.h <<'EOF'
#pragma once
inline int dep_factor() { return 2; }
EOF
git add -A
git commit -q -m "dep"

cd "$dir/clones/fetchy"
git init -q -b main .
cfg
git remote add origin https://github.com/fixture/fetchy.git
mkdir -p src tests
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(fetchy LANGUAGES CXX)
include(FetchContent)
FetchContent_Declare(dep GIT_REPOSITORY https://example.invalid/dep.git GIT_TAG main)
FetchContent_MakeAvailable(dep)
enable_testing()
add_library(fetchy src/fetchy.cpp)
target_include_directories(fetchy PUBLIC src)
target_link_libraries(fetchy PUBLIC dep)
add_subdirectory(tests)
EOF
cat > tests/CMakeLists.txt <<'EOF'
add_executable(fetchy_tests fetchy_test.cpp)
target_link_libraries(fetchy_tests PRIVATE fetchy)
add_test(NAME plus COMMAND fetchy_tests plus)
add_test(NAME twice_zero COMMAND fetchy_tests twice_zero)
EOF
cat > src/fetchy.h <<'EOF'
#pragma once
int plus(int a, int b);
int twice(int x);
EOF
cat > src/fetchy.cpp <<'EOF'
#include "fetchy.h"

#include <dep.h>

int plus(int a, int b) {
  return a + b;
}

int twice(int x) {
  return x * (dep_factor() + 1);
}
EOF
cat > tests/fetchy_test.cpp <<'EOF'
#include <cstring>

#include "fetchy.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  if (std::strcmp(argv[1], "plus") == 0) return plus(2, 3) == 5 ? 0 : 1;
  if (std::strcmp(argv[1], "twice_zero") == 0) return twice(0) == 0 ? 0 : 1;
  return 2;
}
EOF
git add -A
GIT_AUTHOR_DATE="2024-02-01T12:00:00Z" GIT_COMMITTER_DATE="2024-02-01T12:00:00Z" git commit -q -m "fetchy"
cat > src/fetchy.cpp <<'EOF'
#include "fetchy.h"

#include <dep.h>

int plus(int a, int b) {
  return a + b;
}

int twice(int x) {
  return x * dep_factor();
}
EOF
cat > tests/fetchy_test.cpp <<'EOF'
#include <cstring>

#include "fetchy.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  if (std::strcmp(argv[1], "plus") == 0) return plus(2, 3) == 5 ? 0 : 1;
  if (std::strcmp(argv[1], "twice_zero") == 0) return twice(0) == 0 ? 0 : 1;
  if (std::strcmp(argv[1], "twice") == 0) return twice(4) == 8 ? 0 : 1;
  return 2;
}
EOF
echo 'add_test(NAME twice COMMAND fetchy_tests twice)' >> tests/CMakeLists.txt
git add -A
GIT_AUTHOR_DATE="2024-02-02T12:00:00Z" GIT_COMMITTER_DATE="2024-02-02T12:00:00Z" git commit -q -m "twice doubles"
git tag fix1
