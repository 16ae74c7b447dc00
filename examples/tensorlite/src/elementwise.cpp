// Broadcasting element-wise ops (binary and unary) and their backward functions.
#include "tensorlite/elementwise.h"

#include <cmath>
#include <numbers>
#include <string>

#include "kernel_utils.h"
#include "tensorlite/error.h"
#include "tensorlite/reduction.h"

namespace tensorlite {

using detail::floating_dtype;
using detail::map_binary;
using detail::map_unary;

Tensor add(const Tensor& a, const Tensor& b) {
  return map_binary(a, b, promote_types(a.dtype(), b.dtype()),
                    [](auto x, auto y) { return x + y; });
}

Tensor sub(const Tensor& a, const Tensor& b) {
  return map_binary(a, b, promote_types(a.dtype(), b.dtype()),
                    [](auto x, auto y) { return x - y; });
}

Tensor mul(const Tensor& a, const Tensor& b) {
  return map_binary(a, b, promote_types(a.dtype(), b.dtype()),
                    [](auto x, auto y) { return x * y; });
}

Tensor div(const Tensor& a, const Tensor& b) {
  return map_binary(a, b, floating_dtype(promote_types(a.dtype(), b.dtype())),
                    [](auto x, auto y) { return x / y; });
}

Tensor add_scalar(const Tensor& x, double value) {
  return map_unary(x, x.dtype(), [value](auto v) { return v + static_cast<decltype(v)>(value); });
}

Tensor mul_scalar(const Tensor& x, double value) {
  return map_unary(x, x.dtype(), [value](auto v) { return v * static_cast<decltype(v)>(value); });
}

Tensor neg(const Tensor& x) {
  return map_unary(x, x.dtype(), [](auto v) { return -v; });
}

Tensor relu(const Tensor& x) {
  return map_unary(x, x.dtype(), [](auto v) { return v > 0 ? v : decltype(v){0}; });
}

Tensor gelu(const Tensor& x) {
  return map_unary(x, floating_dtype(x.dtype()), [](auto v) {
    using A = decltype(v);
    return A(0.5) * v * (A(1) + std::erf(v / static_cast<A>(std::numbers::sqrt2)));
  });
}

Tensor tanh(const Tensor& x) {
  return map_unary(x, floating_dtype(x.dtype()), [](auto v) { return std::tanh(v); });
}

Tensor sigmoid(const Tensor& x) {
  return map_unary(x, floating_dtype(x.dtype()), [](auto v) -> decltype(v) {
    using A = decltype(v);
    // Branch on the sign so exp never overflows: exp(-|v|) <= 1.
    if (v >= A(0)) {
      return A(1) / (A(1) + std::exp(-v));
    }
    const A e = std::exp(v);
    return e / (A(1) + e);
  });
}

Tensor exp(const Tensor& x) {
  return map_unary(x, floating_dtype(x.dtype()), [](auto v) { return std::exp(v); });
}

Tensor log(const Tensor& x) {
  return map_unary(x, floating_dtype(x.dtype()), [](auto v) { return std::log(v); });
}

BinaryGrads add_backward(const Tensor& grad, const Shape& a_shape, const Shape& b_shape) {
  return {sum_to_shape(grad, a_shape), sum_to_shape(grad, b_shape)};
}

BinaryGrads sub_backward(const Tensor& grad, const Shape& a_shape, const Shape& b_shape) {
  return {sum_to_shape(grad, a_shape), sum_to_shape(neg(grad), b_shape)};
}

BinaryGrads mul_backward(const Tensor& grad, const Tensor& a, const Tensor& b) {
  return {sum_to_shape(mul(grad, b), a.shape()), sum_to_shape(mul(grad, a), b.shape())};
}

BinaryGrads div_backward(const Tensor& grad, const Tensor& a, const Tensor& b) {
  // d(a/b)/da = 1/b, d(a/b)/db = -a/b^2.
  const Tensor grad_a = div(grad, b);
  const Tensor grad_b = neg(div(mul(grad, a), mul(b, b)));
  return {sum_to_shape(grad_a, a.shape()), sum_to_shape(grad_b, b.shape())};
}

namespace {

void check_same_shape(const Tensor& grad, const Tensor& saved, const char* op) {
  if (grad.shape() != saved.shape()) {
    throw ShapeError(std::string(op) + ": gradient shape " + shape_to_string(grad.shape()) +
                     " differs from the saved tensor's " + shape_to_string(saved.shape()));
  }
}

DType grad_dtype(const Tensor& grad, const Tensor& saved) {
  return floating_dtype(promote_types(grad.dtype(), saved.dtype()));
}

}  // namespace

Tensor relu_backward(const Tensor& grad, const Tensor& x) {
  check_same_shape(grad, x, "relu_backward");
  // The subgradient at 0 is taken as 0, as in PyTorch.
  return map_binary(grad, x, grad_dtype(grad, x),
                    [](auto g, auto v) { return v > 0 ? g : decltype(g){0}; });
}

Tensor gelu_backward(const Tensor& grad, const Tensor& x) {
  check_same_shape(grad, x, "gelu_backward");
  return map_binary(grad, x, grad_dtype(grad, x), [](auto g, auto v) {
    using A = decltype(g);
    // d/dv [v * Phi(v)] = Phi(v) + v * phi(v).
    const A cdf = A(0.5) * (A(1) + std::erf(v / static_cast<A>(std::numbers::sqrt2)));
    const A pdf = std::exp(A(-0.5) * v * v) *
                  static_cast<A>(std::numbers::inv_sqrtpi / std::numbers::sqrt2);
    return g * (cdf + v * pdf);
  });
}

Tensor tanh_backward(const Tensor& grad, const Tensor& y) {
  check_same_shape(grad, y, "tanh_backward");
  return map_binary(grad, y, grad_dtype(grad, y),
                    [](auto g, auto t) { return g * (decltype(g)(1) - t * t); });
}

Tensor sigmoid_backward(const Tensor& grad, const Tensor& y) {
  check_same_shape(grad, y, "sigmoid_backward");
  return map_binary(grad, y, grad_dtype(grad, y),
                    [](auto g, auto s) { return g * s * (decltype(g)(1) - s); });
}

Tensor exp_backward(const Tensor& grad, const Tensor& y) {
  check_same_shape(grad, y, "exp_backward");
  return map_binary(grad, y, grad_dtype(grad, y), [](auto g, auto e) { return g * e; });
}

Tensor log_backward(const Tensor& grad, const Tensor& x) {
  check_same_shape(grad, x, "log_backward");
  return map_binary(grad, x, grad_dtype(grad, x), [](auto g, auto v) { return g / v; });
}

}  // namespace tensorlite
