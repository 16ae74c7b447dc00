// tinyext: a tiny C++ "extension module" for the pytest conftest check
// (tests/runtime/pytest_check.py). The check instruments it with `dlfl instrument`, loads
// it with ctypes and expects each `@name` line covered exactly by the tests that reach it.
#include <algorithm>

namespace {

int twice(int x) {
  const int y = x * 2;  // @twice
  return y;             // @twice
}

}  // namespace

extern "C" {

int tiny_add(int a, int b) {
  const int sum = a + b;  // @add
  return sum;             // @add
}

int tiny_clamp(int x, int hi) {
  if (x < 0)   // @clamp
    return 0;  // @clamp-low
  if (x > hi)  // @clamp-mid
    return hi;  // @clamp-high
  return x;     // @clamp-in
}

int tiny_twice_max(int a, int b) {
  return twice(std::max(a, b));  // @twice-max
}

}  // extern "C"
