// Helpers shared by the tests: a private RNG, closeness checks, naive references and
// central finite differences for gradient checks.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <sstream>
#include <vector>

#include "tensorlite/tensorlite.h"

namespace tltest {

using tensorlite::DType;
using tensorlite::Shape;
using tensorlite::Tensor;

// Test inputs come from this LCG rather than tensorlite::Generator, so a fault in the
// library cannot change the data it is tested on.
inline std::vector<double> random_values(std::size_t n, std::uint64_t seed, double lo = -1.0,
                                         double hi = 1.0) {
  std::uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
  std::vector<double> values(n);
  for (double& v : values) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = lo + (hi - lo) * static_cast<double>(state >> 11) * 0x1.0p-53;
  }
  return values;
}

inline Tensor random_tensor(const Shape& shape, std::uint64_t seed, DType dtype = DType::Float64,
                            double lo = -1.0, double hi = 1.0) {
  return Tensor::from_vector(
      random_values(static_cast<std::size_t>(tensorlite::shape_numel(shape)), seed, lo, hi), shape,
      dtype);
}

inline std::vector<double> iota(std::size_t n, double start = 0.0) {
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = start + static_cast<double>(i);
  }
  return values;
}

inline ::testing::AssertionResult values_close(const std::vector<double>& actual,
                                               const std::vector<double>& expected,
                                               double atol = 1e-6, double rtol = 1e-6) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << "size " << actual.size() << " != expected size " << expected.size();
  }
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double a = actual[i];
    const double e = expected[i];
    const bool both_nan = std::isnan(a) && std::isnan(e);
    const bool same_inf = std::isinf(a) && a == e;
    if (!both_nan && !same_inf && !(std::abs(a - e) <= atol + rtol * std::abs(e))) {
      return ::testing::AssertionFailure()
             << "element " << i << ": " << a << " != expected " << e << " (atol " << atol
             << ", rtol " << rtol << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult tensor_close(const Tensor& actual, const Shape& shape,
                                               const std::vector<double>& expected,
                                               double atol = 1e-6, double rtol = 1e-6) {
  if (actual.shape() != shape) {
    return ::testing::AssertionFailure()
           << "shape " << tensorlite::shape_to_string(actual.shape()) << " != expected "
           << tensorlite::shape_to_string(shape);
  }
  return values_close(actual.to_vector(), expected, atol, rtol);
}

inline ::testing::AssertionResult tensor_close(const Tensor& actual, const Tensor& expected,
                                               double atol = 1e-6, double rtol = 1e-6) {
  return tensor_close(actual, expected.shape(), expected.to_vector(), atol, rtol);
}

// Multi-index of flat row-major position `flat` in `shape`.
inline std::vector<std::int64_t> unravel(std::int64_t flat, const Shape& shape) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

// The index into a tensor of `shape` that an output index reads under broadcasting.
inline std::vector<std::int64_t> broadcast_index(const std::vector<std::int64_t>& out_index,
                                                 const Shape& shape) {
  std::vector<std::int64_t> index(shape.size());
  const std::size_t lead = out_index.size() - shape.size();
  for (std::size_t d = 0; d < shape.size(); ++d) {
    index[d] = shape[d] == 1 ? 0 : out_index[lead + d];
  }
  return index;
}

// d/dx sum(f(x) * upstream) by central differences in float64: the reference every
// backward function is checked against.
inline Tensor numerical_grad(const std::function<Tensor(const Tensor&)>& f, const Tensor& x,
                             const Tensor& upstream, double h = 1e-6) {
  const std::vector<double> base = x.to_vector();
  const std::vector<double> weights = upstream.to_vector();
  const auto weighted = [&](const std::vector<double>& point) {
    const std::vector<double> out = f(Tensor::from_vector(point, x.shape(), DType::Float64))
                                        .to_vector();
    EXPECT_EQ(out.size(), weights.size()) << "upstream gradient does not match f's output";
    double total = 0.0;
    for (std::size_t i = 0; i < out.size() && i < weights.size(); ++i) {
      total += out[i] * weights[i];
    }
    return total;
  };
  std::vector<double> grad(base.size());
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::vector<double> plus = base;
    std::vector<double> minus = base;
    plus[i] += h;
    minus[i] -= h;
    grad[i] = (weighted(plus) - weighted(minus)) / (2.0 * h);
  }
  return Tensor::from_vector(grad, x.shape(), DType::Float64);
}

// Tolerances for comparing an analytic float64 gradient with numerical_grad.
inline constexpr double kGradAtol = 1e-6;
inline constexpr double kGradRtol = 1e-5;

}  // namespace tltest
