// Batched matrix multiplication and its backward function.
#pragma once

#include "tensorlite/tensor.h"

namespace tensorlite {

// [..., M, K] x [..., K, N] -> [..., M, N]; the leading (batch) dimensions broadcast.
// Both inputs need rank >= 2. The CPU kernel walks the same tile grid as
// cuda/matmul.cu (see launch_geometry.h).
Tensor matmul(const Tensor& a, const Tensor& b);

struct MatmulGrads {
  Tensor grad_a;
  Tensor grad_b;
};
MatmulGrads matmul_backward(const Tensor& grad, const Tensor& a, const Tensor& b);

}  // namespace tensorlite
