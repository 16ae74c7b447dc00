// dispatch_floating(): the dtype switch of every operator, written out instead of
// AT_DISPATCH_* so each case is a plain source line (what a coverage tool can see).
// Half and BFloat16 accumulate in float, float in float, double in double.
#pragma once

#include <ATen/ATen.h>

#include "fault.h"

namespace torch_ext {

template <typename Scalar, typename Acc>
struct Types {
  using scalar = Scalar;
  using acc = Acc;
};

// Calls f(Types<scalar, acc>{}) for the tensor's dtype; other dtypes are a TORCH_CHECK error
// naming `op` (a Python RuntimeError).
template <typename F>
void dispatch_floating(const at::Tensor& t, const char* op, F&& f) {
  switch (t.scalar_type()) {
    case at::kFloat:
      return f(Types<float, float>{});
    case at::kDouble:
      return f(Types<double, double>{});
    case at::kHalf:
      return f(Types<at::Half, float>{});
    case at::kBFloat16:
      if (fault_active("bf16_dispatch_half"))
        return f(Types<at::Half, float>{});  // FAULT(bf16_dispatch_half)
      return f(Types<at::BFloat16, float>{});
    default:
      TORCH_CHECK(false, op, ": unsupported dtype ", t.scalar_type());
  }
}

// Rows x columns of a contiguous tensor whose last dimension is the reduced one. (Lambdas
// capture them as plain variables: clang 14, which `dlfl instrument` uses, cannot capture
// structured bindings.)
inline std::pair<int64_t, int64_t> rows_and_cols(const at::Tensor& t) {
  const int64_t cols = t.dim() == 0 ? 1 : t.size(-1);
  return {cols == 0 ? 0 : t.numel() / cols, cols};
}

}  // namespace torch_ext
