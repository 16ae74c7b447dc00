#!/bin/sh
# Makes two git repositories for `dlfl bugset reproduce`'s handling of configure-time
# downloads (tests/lab/bench/bugset_reproduce_habits_test.cpp): DIR/dep, a header-only
# dependency, and DIR/clones/fetchy (fixture+fetchy), whose CMake fetches dep at
# configure time from https://example.invalid/dep.git (FetchContent), a URL no machine
# can reach, and whose tests are CTest commands. Tag `fix1` fixes bug #1 (twice() tripled)
# and brings the test that shows it; tag `fix2` fixes bug #2 (plus() subtracted), whose
# version asks for dep's `master`, which the dep clone (branch main) lacks; dep's main
# moved on in 2025 (the last step here). DIR/clones/cachey (fixture+cachey) renames a CMake
# option between two bugs, as oneDNN renamed MKLDNN_CPU_RUNTIME: its later version treats
# the old option, when the cache still holds it, as obsolete and does not compile. Tags
# `fixa` and `fixb` fix bugs #1 and #2 (plus() subtracted, twice() tripled).
# DIR/clones/listy (fixture+listy) has no CTest tests: one program lists its checks
# (`--list`, names with blanks and shell characters, as Catch's) and runs one by name.
# Tag `fixs` fixes bug #1 (scale() added).
# DIR/clones/subby (fixture+subby) has two submodules from URLs no machine can reach:
# third_party/dep (DIR/dep, which it needs) and gpu (DIR/gpu, an optional part it does
# not build). Tag `fixu` fixes bug #1 (twice() tripled).
# Usage: make_clones.sh DIR   (DIR must not exist)
set -eu
dir=$1
mkdir -p "$dir/dep" "$dir/gpu" "$dir/clones/fetchy" "$dir/clones/cachey" "$dir/clones/listy" "$dir/clones/subby"
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
GIT_AUTHOR_DATE="2023-06-01T12:00:00Z" GIT_COMMITTER_DATE="2023-06-01T12:00:00Z" git commit -q -m "dep"

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
# Bug #2 of fetchy asks for dep's `master`, which the dep clone (branch main) lacks:
# plus() subtracts; tag fix2 fixes it.
sed -i 's/GIT_TAG main/GIT_TAG master/' CMakeLists.txt
sed -i 's/return a + b;/return a - b;/' src/fetchy.cpp
git add -A
GIT_AUTHOR_DATE="2024-03-01T12:00:00Z" GIT_COMMITTER_DATE="2024-03-01T12:00:00Z" git commit -q -m "dep from master"
sed -i 's/return a - b;/return a + b;/' src/fetchy.cpp
git add -A
GIT_AUTHOR_DATE="2024-03-02T12:00:00Z" GIT_COMMITTER_DATE="2024-03-02T12:00:00Z" git commit -q -m "plus adds"
git tag fix2

cd "$dir/clones/cachey"
git init -q -b main .
cfg
git remote add origin https://github.com/fixture/cachey.git
mkdir -p src tests
commit() {
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"
}
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(cachey LANGUAGES CXX)
option(CACHEY_LEGACY_MODE "the old name of CACHEY_MODE" ON)
enable_testing()
add_library(cachey src/cachey.cpp)
target_include_directories(cachey PUBLIC src)
add_subdirectory(tests)
EOF
cat > tests/CMakeLists.txt <<'EOF'
add_executable(cachey_tests cachey_test.cpp)
target_link_libraries(cachey_tests PRIVATE cachey)
add_test(NAME zero COMMAND cachey_tests zero)
add_test(NAME plus COMMAND cachey_tests plus)
EOF
cat > src/cachey.h <<'EOF'
#pragma once
int plus(int a, int b);
int twice(int x);
EOF
cat > src/cachey.cpp <<'EOF'
#include "cachey.h"

int plus(int a, int b) {
  return a - b;
}

int twice(int x) {
  return x * 2;
}
EOF
cat > tests/cachey_test.cpp <<'EOF'
#include <cstring>

#include "cachey.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  if (std::strcmp(argv[1], "zero") == 0) return plus(0, 0) == 0 && twice(0) == 0 ? 0 : 1;
  if (std::strcmp(argv[1], "plus") == 0) return plus(2, 3) == 5 ? 0 : 1;
  if (std::strcmp(argv[1], "twice") == 0) return twice(4) == 8 ? 0 : 1;
  return 2;
}
EOF
commit 2024-03-01T12:00:00Z "cachey"
sed -i 's/return a - b;/return a + b;/' src/cachey.cpp
commit 2024-03-02T12:00:00Z "plus adds"
git tag fixa
# The option's new name; a cache that still holds the old one takes the obsolete path.
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(cachey LANGUAGES CXX)
set(CACHEY_MODE "fast" CACHE STRING "how cachey computes")
enable_testing()
add_library(cachey src/cachey.cpp)
target_include_directories(cachey PUBLIC src)
if(DEFINED CACHEY_LEGACY_MODE)
  message(STATUS "CACHEY_LEGACY_MODE is obsolete: use CACHEY_MODE")
  target_compile_definitions(cachey PRIVATE CACHEY_OBSOLETE_OPTION)
endif()
add_subdirectory(tests)
EOF
cat > src/cachey.cpp <<'EOF'
#include "cachey.h"

#ifdef CACHEY_OBSOLETE_OPTION
#error "CACHEY_MODE must be set"
#endif

int plus(int a, int b) {
  return a + b;
}

int twice(int x) {
  return x * 3;
}
EOF
commit 2024-03-03T12:00:00Z "CACHEY_MODE"
sed -i 's/return x \* 3;/return x * 2;/' src/cachey.cpp
echo 'add_test(NAME twice COMMAND cachey_tests twice)' >> tests/CMakeLists.txt
commit 2024-03-04T12:00:00Z "twice doubles"
git tag fixb

cd "$dir/clones/listy"
git init -q -b main .
cfg
git remote add origin https://github.com/fixture/listy.git
mkdir -p src tests
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(listy LANGUAGES CXX)
add_library(listy src/listy.cpp)
target_include_directories(listy PUBLIC src)
add_executable(listy_checks tests/checks.cpp)
target_link_libraries(listy_checks PRIVATE listy)
EOF
cat > src/listy.h <<'EOF'
#pragma once
int sum(int a, int b);
int scale(int x, int k);
EOF
cat > src/listy.cpp <<'EOF'
#include "listy.h"

int sum(int a, int b) {
  return a + b;
}

int scale(int x, int k) {
  return x + k;
}
EOF
# The checks' names hold blanks, a quote and a command substitution: each must reach
# the program as one argument, and none may run.
cat > tests/checks.cpp <<'EOF'
#include <cstdio>
#include <cstring>

#include "listy.h"

struct Check {
  const char* name;
  bool (*run)();
};
const Check checks[] = {
    {"sum of two", [] { return sum(2, 3) == 5; }},
    {"sum's zero $(touch pwned)", [] { return sum(0, 0) == 0; }},
    {"scale by one", [] { return scale(4, 1) == 4; }},
};

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const auto& c : checks) std::printf("%s\n", c.name);
    return 0;
  }
  if (argc != 2) return 2;
  for (const auto& c : checks)
    if (std::strcmp(argv[1], c.name) == 0) return c.run() ? 0 : 1;
  return 2;
}
EOF
commit 2024-04-01T12:00:00Z "listy"
sed -i 's/return x + k;/return x * k;/' src/listy.cpp
commit 2024-04-02T12:00:00Z "scale multiplies"
git tag fixs

cd "$dir/gpu"
git init -q -b main .
cfg
echo "kernels" > README
commit 2024-05-01T12:00:00Z "gpu"

cd "$dir/clones/subby"
git init -q -b main .
cfg
git remote add origin https://github.com/fixture/subby.git
mkdir -p src tests
cat > .gitmodules <<'EOF'
[submodule "third_party/dep"]
	path = third_party/dep
	url = https://example.invalid/dep.git
[submodule "gpu"]
	path = gpu
	url = https://example.invalid/gpu.git
EOF
git update-index --add --cacheinfo "160000,$(git -C "$dir/dep" rev-parse HEAD),third_party/dep"
git update-index --add --cacheinfo "160000,$(git -C "$dir/gpu" rev-parse HEAD),gpu"
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(subby LANGUAGES CXX)
enable_testing()
add_library(subby src/subby.cpp)
target_include_directories(subby PUBLIC src third_party/dep/include)
add_executable(subby_tests tests/subby_test.cpp)
target_link_libraries(subby_tests PRIVATE subby)
add_test(NAME plus COMMAND subby_tests plus)
add_test(NAME twice_zero COMMAND subby_tests twice_zero)
add_test(NAME twice COMMAND subby_tests twice)
EOF
cat > src/subby.h <<'EOF'
#pragma once
int plus(int a, int b);
int twice(int x);
EOF
cat > src/subby.cpp <<'EOF'
#include "subby.h"

#include <dep.h>

int plus(int a, int b) {
  return a + b;
}

int twice(int x) {
  return x * (dep_factor() + 1);
}
EOF
cat > tests/subby_test.cpp <<'EOF'
#include <cstring>

#include "subby.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  if (std::strcmp(argv[1], "plus") == 0) return plus(2, 3) == 5 ? 0 : 1;
  if (std::strcmp(argv[1], "twice_zero") == 0) return twice(0) == 0 ? 0 : 1;
  if (std::strcmp(argv[1], "twice") == 0) return twice(4) == 8 ? 0 : 1;
  return 2;
}
EOF
# Not commit(): `git add -A` would drop the gitlinks, whose folders are not there.
git add .gitmodules CMakeLists.txt src tests
GIT_AUTHOR_DATE=2024-05-02T12:00:00Z GIT_COMMITTER_DATE=2024-05-02T12:00:00Z git commit -q -m "subby"
sed -i 's/return x \* (dep_factor() + 1);/return x * dep_factor();/' src/subby.cpp
echo "// twice doubles" >> tests/subby_test.cpp
git add src tests
GIT_AUTHOR_DATE=2024-05-03T12:00:00Z GIT_COMMITTER_DATE=2024-05-03T12:00:00Z git commit -q -m "twice doubles"
git tag fixu

# DIR/clones/oldy (fixture+oldy): its test program speaks GoogleTest 1.7's protocol (no
# JSON report: a warning, as GoogleTest before 1.8.1 prints; an XML report; the console
# lines), is built only under the project's option OLDY_BUILD_TESTS, and the failing test
# aborts on the buggy version; C is enabled (CMake's C checks link the recipe's flags). Tag `fixo` fixes bug #1
# (safe_div() aborted on a negative divisor).
mkdir -p "$dir/clones/oldy"
cd "$dir/clones/oldy"
git init -q -b main .
cfg
git remote add origin https://github.com/fixture/oldy.git
mkdir -p src tests
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(oldy LANGUAGES C CXX)
find_package(Threads REQUIRED)
option(OLDY_BUILD_TESTS "build the tests" OFF)
add_library(oldy src/oldy.cpp)
target_include_directories(oldy PUBLIC src)
if(OLDY_BUILD_TESTS)
  add_executable(oldy_tests tests/old_gtest.cpp)
  target_link_libraries(oldy_tests PRIVATE oldy Threads::Threads)
endif()
EOF
cat > src/oldy.h <<'EOF'
#pragma once
int twice(int x);
int safe_div(int a, int b);
EOF
cat > src/oldy.cpp <<'EOF'
#include "oldy.h"

#include <cstdlib>

int twice(int x) {
  return x * 2;
}

int safe_div(int a, int b) {
  if (b <= 0)
    std::abort();
  return a / b;
}
EOF
cat > tests/old_gtest.cpp <<'EOF'
#include <cstdio>
#include <fstream>
#include <string>

#include "oldy.h"

struct Test {
  const char* suite;
  const char* name;
  bool (*run)();
};
const Test tests[] = {
    {"Twice", "Small", [] { return twice(2) == 4; }},
    {"Div", "Plain", [] { return safe_div(6, 2) == 3; }},
    {"Div", "Negative", [] { return safe_div(6, -2) == -3; }},
};

int main(int argc, char** argv) {
  std::string filter = "*", output;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--gtest_list_tests") {
      std::printf("Twice.\n  Small\nDiv.\n  Plain\n  Negative\n");
      return 0;
    }
    if (arg.rfind("--gtest_filter=", 0) == 0) filter = arg.substr(15);
    if (arg.rfind("--gtest_output=", 0) == 0) output = arg.substr(15);
  }
  if (!output.empty() && output.rfind("xml", 0) != 0)
    std::printf("WARNING: unrecognized output format \"%s\" ignored.\n", output.substr(0, output.find(':')).c_str());
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"AllTests\">\n";
  int failed = 0;
  for (const auto& t : tests) {
    const std::string name = std::string(t.suite) + "." + t.name;
    xml += std::string("<testsuite name=\"") + t.suite + "\"><testcase name=\"" + t.name + "\" classname=\"" + t.suite;
    if (filter != "*" && filter != name) {
      xml += "\" status=\"notrun\" /></testsuite>\n";
      continue;
    }
    std::printf("[ RUN      ] %s\n", name.c_str());
    std::fflush(stdout);
    const bool ok = t.run();
    failed += !ok;
    std::printf(ok ? "[       OK ] %s (0 ms)\n" : "old_gtest.cpp: Failure\n[  FAILED  ] %s (0 ms)\n", name.c_str());
    xml += ok ? "\" status=\"run\" /></testsuite>\n"
              : "\" status=\"run\"><failure message=\"wrong\" type=\"\"><![CDATA[old_gtest.cpp: Failure]]></failure>"
                "</testcase></testsuite>\n";
  }
  if (output.rfind("xml:", 0) == 0) std::ofstream(output.substr(4)) << xml << "</testsuites>\n";
  return failed ? 1 : 0;
}
EOF
commit 2016-03-01T12:00:00Z "oldy"
sed -i 's/if (b <= 0)/if (b == 0)/' src/oldy.cpp
commit 2016-03-02T12:00:00Z "safe_div divides by negative numbers"
git tag fixo

# dep moves on after every fixture's bug: its main of 2025 renames dep_factor(), so a
# build of 2024 fetches the dep of its date (`bugset reproduce` pins downloads by date).
cd "$dir/dep"
cat > include/dep.h <<'EOF'
#pragma once
inline int dep_scale() { return 2; }
EOF
git add -A
GIT_AUTHOR_DATE="2025-06-01T12:00:00Z" GIT_COMMITTER_DATE="2025-06-01T12:00:00Z" git commit -q -m "dep_factor renamed"
