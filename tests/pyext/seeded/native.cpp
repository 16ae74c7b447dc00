// The C++ core of the `seeded` package; clamp() carries the seeded fault (marked FAULT).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <vector>

namespace {

int clamp(int x, int lo, int hi) {
  if (lo > hi) throw std::invalid_argument("lo > hi");
  if (x < lo) return lo;
  if (x > hi)
    return lo;  // FAULT: must be hi
  return x;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("sizes differ");
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

double mean(const std::vector<double>& xs) {
  if (xs.empty()) throw std::invalid_argument("empty");
  double sum = 0;
  for (const double x : xs) sum += x;
  return sum / static_cast<double>(xs.size());
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.def("clamp", &clamp);
  m.def("dot", &dot);
  m.def("mean", &mean);
}
