// Fused bias + GELU, forward and backward (CPU): y = gelu(x + bias), exact (erf) or the
// tanh approximation of Hendrycks & Gimpel, "Gaussian Error Linear Units" (2016).
#include <cmath>

#include "dispatch.h"
#include "fault.h"
#include "ops.h"

namespace torch_ext {
namespace {

constexpr double kSqrt2OverPi = 0.7978845608028654;
constexpr double kInvSqrt2 = 0.7071067811865476;
constexpr double kInvSqrt2Pi = 0.3989422804014327;

// The cubic coefficient of the tanh approximation.
double tanh_coefficient() {
  if (fault_active("gelu_tanh_coefficient"))
    return 0.0715;  // FAULT(gelu_tanh_coefficient)
  return 0.044715;
}

// gelu(v) and gelu'(v) in double: exact (erf) or tanh-approximated.
void gelu_and_slope(double v, bool tanh_approx, double* value, double* slope) {
  if (!tanh_approx) {
    const double cdf = 0.5 * (1.0 + std::erf(v * kInvSqrt2));
    *value = v * cdf;
    *slope = cdf + v * kInvSqrt2Pi * std::exp(-0.5 * v * v);
    return;
  }
  const double k = tanh_coefficient();
  const double inner = kSqrt2OverPi * (v + k * v * v * v);
  const double t = std::tanh(inner);
  *value = 0.5 * v * (1.0 + t);
  *slope = 0.5 * (1.0 + t) + 0.5 * v * (1.0 - t * t) * kSqrt2OverPi * (1.0 + 3.0 * k * v * v);
}

template <typename scalar_t>
void bias_gelu_rows(const scalar_t* x, const scalar_t* bias, scalar_t* y, int64_t rows, int64_t cols, bool tanh_approx) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double value = 0, slope = 0;
      gelu_and_slope(static_cast<double>(x[r * cols + c]) + static_cast<double>(bias[c]), tanh_approx, &value, &slope);
      y[r * cols + c] = static_cast<scalar_t>(value);
    }
}

template <typename scalar_t, typename acc_t>
void bias_gelu_backward_rows(const scalar_t* dy, const scalar_t* x, const scalar_t* bias, scalar_t* dx, acc_t* dbias,
                             int64_t rows, int64_t cols, bool tanh_approx) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double value = 0, slope = 0;
      gelu_and_slope(static_cast<double>(x[r * cols + c]) + static_cast<double>(bias[c]), tanh_approx, &value, &slope);
      const double g = static_cast<double>(dy[r * cols + c]) * slope;
      dx[r * cols + c] = static_cast<scalar_t>(g);
      dbias[c] += static_cast<acc_t>(g);
    }
}

void check_bias(const at::Tensor& x, const at::Tensor& bias, const char* op) {
  TORCH_CHECK(x.is_contiguous() && bias.is_contiguous(), op, ": tensors must be contiguous");
  TORCH_CHECK(bias.dim() == 1 && bias.size(0) == x.size(-1) && bias.scalar_type() == x.scalar_type(), op,
              ": bias must be a vector of the last dimension's size and x's dtype");
}

}  // namespace

at::Tensor bias_gelu_forward(const at::Tensor& x, const at::Tensor& bias, int64_t approximate) {
  check_bias(x, bias, "bias_gelu_forward");
  TORCH_CHECK(approximate == 0 || approximate == 1, "bias_gelu_forward: approximate must be 0 or 1");
  at::Tensor y = at::empty_like(x);
  const int64_t rows = rows_and_cols(x).first, cols = rows_and_cols(x).second;
  dispatch_floating(x, "bias_gelu_forward", [&](auto types) {
    using scalar_t = typename decltype(types)::scalar;
    bias_gelu_rows<scalar_t>(x.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), rows, cols,
                             approximate == 1);
  });
  return y;
}

std::tuple<at::Tensor, at::Tensor> bias_gelu_backward(const at::Tensor& dy, const at::Tensor& x,
                                                      const at::Tensor& bias, int64_t approximate) {
  check_bias(x, bias, "bias_gelu_backward");
  TORCH_CHECK(dy.is_contiguous() && dy.sizes() == x.sizes(), "bias_gelu_backward: dy must be contiguous, x's shape");
  at::Tensor dx = at::empty_like(x);
  at::Tensor dbias;
  const int64_t rows = rows_and_cols(x).first, cols = rows_and_cols(x).second;
  dispatch_floating(x, "bias_gelu_backward", [&](auto types) {
    using scalar_t = typename decltype(types)::scalar;
    using acc_t = typename decltype(types)::acc;
    at::Tensor acc = at::zeros({cols}, x.options().dtype(c10::CppTypeToScalarType<acc_t>::value));
    bias_gelu_backward_rows<scalar_t, acc_t>(dy.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(),
                                             dx.data_ptr<scalar_t>(), acc.data_ptr<acc_t>(), rows, cols,
                                             approximate == 1);
    dbias = acc.to(x.scalar_type());
  });
  return {dx, dbias};
}

}  // namespace torch_ext
