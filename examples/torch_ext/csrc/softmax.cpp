// Scaled softmax over the last dimension, forward and backward (CPU).
#include <cmath>
#include <limits>
#include <vector>

#include "dispatch.h"
#include "fault.h"
#include "ops.h"

namespace torch_ext {
namespace {

template <typename scalar_t, typename acc_t>
void softmax_rows(const scalar_t* x, scalar_t* y, int64_t rows, int64_t cols, acc_t scale) {
  std::vector<acc_t> exps(static_cast<std::size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const scalar_t* in = x + r * cols;
    scalar_t* out = y + r * cols;
    // Subtracting the row maximum keeps exp() from overflowing on large logits.
    acc_t shift = -std::numeric_limits<acc_t>::infinity();
    for (int64_t c = 0; c < cols; ++c) shift = std::max(shift, static_cast<acc_t>(in[c]) * scale);
    if (fault_active("softmax_max_shift"))
      shift = acc_t(0);  // FAULT(softmax_max_shift)
    acc_t sum = 0;
    for (int64_t c = 0; c < cols; ++c) {
      exps[c] = std::exp(static_cast<acc_t>(in[c]) * scale - shift);
      sum += exps[c];
    }
    for (int64_t c = 0; c < cols; ++c) out[c] = static_cast<scalar_t>(exps[c] / sum);
  }
}

template <typename scalar_t, typename acc_t>
void softmax_backward_rows(const scalar_t* dy, const scalar_t* y, scalar_t* dx, int64_t rows, int64_t cols,
                           acc_t scale) {
  for (int64_t r = 0; r < rows; ++r) {
    const scalar_t* g = dy + r * cols;
    const scalar_t* out = y + r * cols;
    acc_t dot = 0;
    for (int64_t c = 0; c < cols; ++c) dot += static_cast<acc_t>(g[c]) * static_cast<acc_t>(out[c]);
    acc_t factor = scale;
    if (fault_active("softmax_backward_scale"))
      factor = acc_t(1);  // FAULT(softmax_backward_scale)
    for (int64_t c = 0; c < cols; ++c) {
      const acc_t value = static_cast<acc_t>(out[c]) * (static_cast<acc_t>(g[c]) - dot);
      dx[r * cols + c] = static_cast<scalar_t>(factor * value);
    }
  }
}

}  // namespace

at::Tensor softmax_forward(const at::Tensor& x, double scale) {
  TORCH_CHECK(x.is_contiguous(), "softmax_forward: x must be contiguous");
  at::Tensor y = at::empty_like(x);
  const int64_t rows = rows_and_cols(x).first, cols = rows_and_cols(x).second;
  dispatch_floating(x, "softmax_forward", [&](auto types) {
    using scalar_t = typename decltype(types)::scalar;
    using acc_t = typename decltype(types)::acc;
    softmax_rows<scalar_t, acc_t>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), rows, cols,
                                  static_cast<acc_t>(scale));
  });
  return y;
}

at::Tensor softmax_backward(const at::Tensor& dy, const at::Tensor& y, double scale) {
  TORCH_CHECK(dy.is_contiguous() && y.is_contiguous(), "softmax_backward: tensors must be contiguous");
  TORCH_CHECK(dy.sizes() == y.sizes(), "softmax_backward: gradient and output shapes differ");
  at::Tensor dx = at::empty_like(y);
  const int64_t rows = rows_and_cols(y).first, cols = rows_and_cols(y).second;
  dispatch_floating(y, "softmax_backward", [&](auto types) {
    using scalar_t = typename decltype(types)::scalar;
    using acc_t = typename decltype(types)::acc;
    softmax_backward_rows<scalar_t, acc_t>(dy.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), dx.data_ptr<scalar_t>(),
                                           rows, cols, static_cast<acc_t>(scale));
  });
  return dx;
}

}  // namespace torch_ext
