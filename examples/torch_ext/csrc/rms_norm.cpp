// RMS normalisation over the last dimension with an optional weight, forward and backward
// (CPU): y = x * rstd * w, rstd = 1 / sqrt(mean(x^2) + eps).
#include <cmath>
#include <type_traits>

#include "dispatch.h"
#include "fault.h"
#include "ops.h"

namespace torch_ext {
namespace {

template <typename scalar_t, typename acc_t>
void rms_forward_rows(const scalar_t* x, const scalar_t* w, scalar_t* y, acc_t* rstd, int64_t rows, int64_t cols,
                      double eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const scalar_t* in = x + r * cols;
    // acc_t is float for half and bfloat16: summing squares in 8 mantissa bits loses the row.
    acc_t squares = 0;
    for (int64_t c = 0; c < cols; ++c) squares += static_cast<acc_t>(in[c]) * static_cast<acc_t>(in[c]);
    const double mean = static_cast<double>(squares) / static_cast<double>(cols);
    const acc_t inv = static_cast<acc_t>(1.0 / std::sqrt(mean + eps));
    rstd[r] = inv;
    for (int64_t c = 0; c < cols; ++c) {
      const acc_t scaled = static_cast<acc_t>(in[c]) * inv;
      y[r * cols + c] = static_cast<scalar_t>(w ? scaled * static_cast<acc_t>(w[c]) : scaled);
    }
  }
}

template <typename scalar_t, typename acc_t>
void rms_backward_rows(const scalar_t* dy, const scalar_t* x, const scalar_t* w, const acc_t* rstd, scalar_t* dx,
                       acc_t* dw, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const scalar_t* g = dy + r * cols;
    const scalar_t* in = x + r * cols;
    const acc_t inv = rstd[r];
    // d/dx of x * inv: inv * (gw - xhat * mean(gw * xhat)), gw = g * w, xhat = x * inv.
    acc_t dot = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const acc_t gw = static_cast<acc_t>(g[c]) * (w ? static_cast<acc_t>(w[c]) : acc_t(1));
      dot += gw * static_cast<acc_t>(in[c]) * inv;
    }
    const acc_t mean_dot = dot / static_cast<acc_t>(cols);
    for (int64_t c = 0; c < cols; ++c) {
      const acc_t xhat = static_cast<acc_t>(in[c]) * inv;
      const acc_t gw = static_cast<acc_t>(g[c]) * (w ? static_cast<acc_t>(w[c]) : acc_t(1));
      dx[r * cols + c] = static_cast<scalar_t>(inv * (gw - xhat * mean_dot));
      if (!dw) continue;
      if (fault_active("rms_weight_grad_rows"))
        dw[c] = static_cast<acc_t>(g[c]) * xhat;  // FAULT(rms_weight_grad_rows)
      else
        dw[c] += static_cast<acc_t>(g[c]) * xhat;
    }
  }
}

}  // namespace

std::tuple<at::Tensor, at::Tensor> rms_norm_forward(const at::Tensor& x, const at::Tensor& weight, double eps) {
  TORCH_CHECK(x.is_contiguous(), "rms_norm_forward: x must be contiguous");
  TORCH_CHECK(!weight.defined() || (weight.dim() == 1 && weight.size(0) == x.size(-1) &&
                                    weight.scalar_type() == x.scalar_type() && weight.is_contiguous()),
              "rms_norm_forward: weight must be a contiguous vector of the last dimension's size and x's dtype");
  TORCH_CHECK(eps >= 0, "rms_norm_forward: eps must not be negative, got ", eps);
  const int64_t rows = rows_and_cols(x).first, cols = rows_and_cols(x).second;
  at::Tensor y = at::empty_like(x);
  at::Tensor rstd;
  dispatch_floating(x, "rms_norm_forward", [&](auto types) {
    using scalar_t = typename decltype(types)::scalar;
    using acc_t = typename decltype(types)::acc;
    rstd = at::empty({rows}, x.options().dtype(c10::CppTypeToScalarType<acc_t>::value));
    const scalar_t* w = weight.defined() ? weight.data_ptr<scalar_t>() : nullptr;
    const scalar_t* in = x.data_ptr<scalar_t>();
    scalar_t* out = y.data_ptr<scalar_t>();
    if constexpr (std::is_same_v<scalar_t, at::BFloat16>) {
      if (fault_active("rms_bf16_accumulate")) {
        at::Tensor low = at::empty({rows}, x.options());  // FAULT(rms_bf16_accumulate)
        rms_forward_rows<scalar_t, scalar_t>(in, w, out, low.data_ptr<scalar_t>(), rows, cols, eps);  // FAULT(rms_bf16_accumulate)
        rstd.copy_(low);  // FAULT(rms_bf16_accumulate)
        return;
      }
    }
    rms_forward_rows<scalar_t, acc_t>(in, w, out, rstd.data_ptr<acc_t>(), rows, cols, eps);
  });
  return {y, rstd};
}

std::tuple<at::Tensor, at::Tensor> rms_norm_backward(const at::Tensor& dy, const at::Tensor& x,
                                                     const at::Tensor& weight, const at::Tensor& rstd) {
  TORCH_CHECK(dy.is_contiguous() && x.is_contiguous() && dy.sizes() == x.sizes(),
              "rms_norm_backward: dy and x must be contiguous and of one shape");
  const int64_t rows = rows_and_cols(x).first, cols = rows_and_cols(x).second;
  TORCH_CHECK(rstd.numel() == rows, "rms_norm_backward: rstd has ", rstd.numel(), " rows, x ", rows);
  at::Tensor dx = at::empty_like(x);
  at::Tensor dw;
  dispatch_floating(x, "rms_norm_backward", [&](auto types) {
    using scalar_t = typename decltype(types)::scalar;
    using acc_t = typename decltype(types)::acc;
    at::Tensor dw_acc;
    if (weight.defined()) dw_acc = at::zeros({cols}, x.options().dtype(c10::CppTypeToScalarType<acc_t>::value));
    const at::Tensor r = rstd.to(c10::CppTypeToScalarType<acc_t>::value).contiguous();
    rms_backward_rows<scalar_t, acc_t>(dy.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(),
                                       weight.defined() ? weight.data_ptr<scalar_t>() : nullptr, r.data_ptr<acc_t>(),
                                       dx.data_ptr<scalar_t>(), weight.defined() ? dw_acc.data_ptr<acc_t>() : nullptr,
                                       rows, cols);
    if (weight.defined()) dw = dw_acc.to(x.scalar_type());
  });
  return {dx, dw};
}

}  // namespace torch_ext
