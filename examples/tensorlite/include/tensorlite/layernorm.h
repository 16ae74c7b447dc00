// Layer normalization over the last dimension (Ba et al., 2016) and its backward.
#pragma once

#include "tensorlite/tensor.h"

namespace tensorlite {

inline constexpr double kLayerNormEps = 1e-5;

// Saved statistics, like the framework's saved tensors, so backward does not recompute
// them: mean and rstd = 1 / sqrt(var + eps) have x's shape without the last dimension.
struct LayerNormResult {
  Tensor output;
  Tensor mean;
  Tensor rstd;
};

// y = (x - mean) * rstd * gamma + beta with the biased variance; gamma and beta are
// [D] (D = x.size(-1)) or undefined (identity affine).
LayerNormResult layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                           double eps = kLayerNormEps);

struct LayerNormGrads {
  Tensor grad_input;
  Tensor grad_gamma;  // undefined when gamma was
  Tensor grad_beta;   // undefined when beta was
};
LayerNormGrads layer_norm_backward(const Tensor& grad, const Tensor& x, const Tensor& gamma,
                                   const Tensor& beta, const LayerNormResult& saved);

}  // namespace tensorlite
