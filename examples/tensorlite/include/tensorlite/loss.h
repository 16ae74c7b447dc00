// Loss functions (mean reduction) and their backward functions.
#pragma once

#include "tensorlite/tensor.h"

namespace tensorlite {

// logits [N, C] with targets [N], or logits [N, C, L] (e.g. one prediction per token)
// with targets [N, L]; the class axis is always 1, as in PyTorch. Targets are class ids
// (int32 or int64); the loss is the mean over all N (x L) predictions, a 0-d tensor.
// Throws ArgumentError for a class id outside [0, C).
Tensor cross_entropy(const Tensor& logits, const Tensor& targets);
// grad_loss is the 0-d upstream gradient; returns d loss / d logits.
Tensor cross_entropy_backward(const Tensor& grad_loss, const Tensor& logits,
                              const Tensor& targets);

// mean((prediction - target)^2) -> 0-d.
Tensor mse_loss(const Tensor& prediction, const Tensor& target);
Tensor mse_loss_backward(const Tensor& grad_loss, const Tensor& prediction,
                         const Tensor& target);

}  // namespace tensorlite
