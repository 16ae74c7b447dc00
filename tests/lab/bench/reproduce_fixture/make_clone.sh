#!/bin/sh
# Makes the git history of "calc" (fixture+calc), the fixture of `dlfl bugset reproduce`
# (tests/lab/bench/bugset_reproduce_test.cpp): a small CMake + GoogleTest project whose bugs
# are fixed one commit at a time. Tags fix1..fix6 name the fixes of bugs #1..#6:
#   #1 C++ (clamp), the fix adds a test;           #2 a CUDA-style kernel header, the fix changes a test;
#   #3 C++ (sign), the fix adds no test;            #4 C++ (mean), the fix adds a test file;
#   #6 a Python tool only (no C/C++ change);       #5 the buggy version does not build;
#   #7 C++ (median), the fix only inserts lines (a fault of omission) and adds a test.
# The manifests: manifest.jsonl.in (#1-#6), manifest-omission.jsonl.in (#7).
# Usage: make_clone.sh DIR   (DIR must not exist)
set -eu
dir=$1
mkdir -p "$dir"
cd "$dir"
git init -q -b main .
git config user.name "Fixture Author"
git config user.email fixture@example.org
git config commit.gpgsign false
git remote add origin https://github.com/fixture/calc.git
n=0
commit() {
  n=$((n + 1))
  git add -A
  day=$(printf %02d "$n")
  GIT_AUTHOR_DATE="2024-01-${day}T12:00:00Z" GIT_COMMITTER_DATE="2024-01-${day}T12:00:00Z" git commit -q -m "$1"
}

mkdir -p src/kernels tests tools
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(calc LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(GTest REQUIRED)
include(GoogleTest)
enable_testing()
add_library(calc src/arith.cpp src/stats.cpp src/kernels.cpp)
target_include_directories(calc PUBLIC src)
add_subdirectory(tests)
EOF
cat > tests/CMakeLists.txt <<'EOF'
add_executable(calc_tests arith_test.cpp kernel_test.cpp)
target_link_libraries(calc_tests PRIVATE calc GTest::gtest_main)
gtest_discover_tests(calc_tests)
EOF
cat > src/calc.h <<'EOF'
#pragma once
#include <cstddef>
#include <vector>

namespace calc {
int clamp(int x, int lo, int hi);
long sum_range(const std::vector<int>& v, std::size_t begin, std::size_t end);
int sign(int x);
double mean(const std::vector<int>& v);
std::size_t count_above(const std::vector<int>& v, int threshold);
void saxpy(float a, const std::vector<float>& x, std::vector<float>& y);
}  // namespace calc
EOF
cat > src/arith.cpp <<'EOF'
#include "calc.h"

namespace calc {

int clamp(int x, int lo, int hi) {
  if (x < lo)
    return lo;
  if (x > hi)
    return lo;
  return x;
}

long sum_range(const std::vector<int>& v, std::size_t begin, std::size_t end) {
  long total = 0;
  for (std::size_t i = begin; i < end && i < v.size(); ++i)
    total += v[i];
  return total;
}

int sign(int x) {
  if (x > 0)
    return 1;
  if (x < 0)
    return 1;
  return 0;
}

}  // namespace calc
EOF
cat > src/stats.cpp <<'EOF'
#include "calc.h"

namespace calc {

double mean(const std::vector<int>& v) {
  if (v.empty())
    return 0.0;
  const long total = sum_range(v, 0, v.size());
  return total / static_cast<long>(v.size());
}

std::size_t count_above(const std::vector<int>& v, int threshold) {
  std::size_t n = 0;
  for (int x : v)
    if (x > threshold)
      ++n;
  return n;
}

}  // namespace calc
EOF
cat > src/kernels/saxpy_kernel.cuh <<'EOF'
// CUDA-style kernel written to compile as host code too (no .cu file, no nvcc needed).
#pragma once
#include <cstddef>
#ifndef __CUDACC__
#define __global__
#define __device__
#endif

namespace calc::kernels {

__device__ inline std::size_t global_index(unsigned block, unsigned thread, unsigned block_dim) {
  return static_cast<std::size_t>(block) * block_dim + thread;
}

__global__ inline void saxpy_kernel(unsigned block, unsigned thread, unsigned block_dim, std::size_t n, float a,
                                    const float* x, float* y) {
  const std::size_t i = global_index(block, thread, block_dim);
  if (i < n)
    y[i] = a * x[i] + y[i];
}

inline unsigned grid_size(std::size_t n, unsigned block_dim) {
  return static_cast<unsigned>(n / block_dim);
}

}  // namespace calc::kernels
EOF
cat > src/kernels.cpp <<'EOF'
#include "calc.h"
#include "kernels/saxpy_kernel.cuh"

namespace calc {

void saxpy(float a, const std::vector<float>& x, std::vector<float>& y) {
  constexpr unsigned kBlock = 4;
  const unsigned grid = kernels::grid_size(x.size(), kBlock);
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < kBlock; ++t)
      kernels::saxpy_kernel(b, t, kBlock, x.size(), a, x.data(), y.data());
}

}  // namespace calc
EOF
cat > tests/arith_test.cpp <<'EOF'
#include <gtest/gtest.h>

#include "calc.h"

TEST(Clamp, Inside) { EXPECT_EQ(calc::clamp(5, 0, 10), 5); }
TEST(Clamp, Below) { EXPECT_EQ(calc::clamp(-3, 0, 10), 0); }
TEST(SumRange, Whole) { EXPECT_EQ(calc::sum_range({1, 2, 3}, 0, 3), 6); }
TEST(SumRange, Part) { EXPECT_EQ(calc::sum_range({1, 2, 3}, 1, 9), 5); }
TEST(Sign, Positive) { EXPECT_EQ(calc::sign(7), 1); }
TEST(Sign, Zero) { EXPECT_EQ(calc::sign(0), 0); }
EOF
cat > tests/kernel_test.cpp <<'EOF'
#include <gtest/gtest.h>

#include "calc.h"

TEST(Saxpy, FullBlocks) {
  std::vector<float> x(8, 1.0f), y(8, 2.0f);
  calc::saxpy(3.0f, x, y);
  for (float v : y) EXPECT_EQ(v, 5.0f);
}
TEST(Saxpy, Empty) {
  std::vector<float> x, y;
  calc::saxpy(3.0f, x, y);
  EXPECT_TRUE(y.empty());
}
EOF
cat > tools/check.py <<'EOF'
def in_range(x, lo, hi):
    return lo < x < hi
EOF
commit "calc: clamp, sums, sign, mean, a saxpy kernel"

sed -i '9s/return lo;/return hi;/' src/arith.cpp
cat >> tests/arith_test.cpp <<'EOF'
TEST(Clamp, Above) { EXPECT_EQ(calc::clamp(15, 0, 10), 10); }
EOF
commit "Fix clamp above the range (#1)"
git tag fix1

sed -i 's|return static_cast<unsigned>(n / block_dim);|return static_cast<unsigned>((n + block_dim - 1) / block_dim);|' src/kernels/saxpy_kernel.cuh
cat >> tests/kernel_test.cpp <<'EOF'
TEST(Saxpy, PartialBlock) {
  std::vector<float> x(6, 1.0f), y(6, 2.0f);
  calc::saxpy(3.0f, x, y);
  for (float v : y) EXPECT_EQ(v, 5.0f);
}
EOF
commit "Fix the saxpy grid size for a partial last block (#2)"
git tag fix2

sed -i '24s/return 1;/return -1;/' src/arith.cpp
commit "Fix sign of negative numbers (#3)"
git tag fix3

sed -i 's|return total / static_cast<long>(v.size());|return static_cast<double>(total) / static_cast<double>(v.size());|' src/stats.cpp
sed -i 's|add_executable(calc_tests arith_test.cpp kernel_test.cpp)|add_executable(calc_tests arith_test.cpp kernel_test.cpp stats_test.cpp)|' tests/CMakeLists.txt
cat > tests/stats_test.cpp <<'EOF'
#include <gtest/gtest.h>

#include "calc.h"

TEST(Mean, Halves) { EXPECT_DOUBLE_EQ(calc::mean({1, 2}), 1.5); }
TEST(Mean, Whole) { EXPECT_DOUBLE_EQ(calc::mean({2, 4}), 3.0); }
TEST(Mean, Empty) { EXPECT_DOUBLE_EQ(calc::mean({}), 0.0); }
TEST(CountAbove, Some) { EXPECT_EQ(calc::count_above({1, 5, 9}, 4), 2u); }
EOF
commit "Fix the integer division in mean (#4)"
git tag fix4

cat > tools/check.py <<'EOF'
def in_range(x, lo, hi):
    return lo <= x <= hi
EOF
cat > tests/test_check.py <<'EOF'
from tools.check import in_range
def test_bounds():
    assert in_range(0, 0, 1)
EOF
commit "Fix the range check of the tools (#6)"
git tag fix6

cat > src/format.cpp <<'EOF'
#include <string>

#include "calc.h"

namespace calc {

std::string format_sum(const std::vector<int>& v) {
  return "sum=" + std::to_string(sum_range(v, 0, v.size())
}

}  // namespace calc
EOF
sed -i 's|add_library(calc src/arith.cpp src/stats.cpp src/kernels.cpp)|add_library(calc src/arith.cpp src/stats.cpp src/kernels.cpp src/format.cpp)|' CMakeLists.txt
commit "Add format_sum"

sed -i 's|  return "sum=" + std::to_string(sum_range(v, 0, v.size())$|  return "sum=" + std::to_string(sum_range(v, 0, v.size()));|' src/format.cpp
cat >> tests/arith_test.cpp <<'EOF'
namespace calc { std::string format_sum(const std::vector<int>& v); }
TEST(Format, Sum) { EXPECT_EQ(calc::format_sum({1, 2}), "sum=3"); }
EOF
sed -i '1i #include <string>' tests/arith_test.cpp
commit "Fix the build of format_sum (#5)"
git tag fix5

cat > src/median.cpp <<'EOF'
#include <algorithm>

#include "calc.h"

namespace calc {

double median(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v[mid];
}

}  // namespace calc
EOF
sed -i 's|void saxpy(|double median(std::vector<int> v);\nvoid saxpy(|' src/calc.h
sed -i 's|src/format.cpp)|src/format.cpp src/median.cpp)|' CMakeLists.txt
echo 'TEST(Median, Odd) { EXPECT_DOUBLE_EQ(calc::median({3, 1, 2}), 2.0); }' >> tests/stats_test.cpp
commit "Add median"

sed -i '9a\  if (v.size() % 2 == 0)\n    return (v[mid - 1] + v[mid]) / 2.0;' src/median.cpp
echo 'TEST(Median, Even) { EXPECT_DOUBLE_EQ(calc::median({4, 1, 3, 2}), 2.5); }' >> tests/stats_test.cpp
commit "Fix the median of an even count (#7)"
git tag fix7
