// Numerically stable softmax / log-softmax along one axis, and their backward functions.
#pragma once

#include <cstdint>

#include "tensorlite/tensor.h"

namespace tensorlite {

Tensor softmax(const Tensor& x, std::int64_t axis = -1);
Tensor log_softmax(const Tensor& x, std::int64_t axis = -1);

// Both take the forward *output* y, which is all the Jacobian-vector product needs.
Tensor softmax_backward(const Tensor& grad, const Tensor& y, std::int64_t axis = -1);
Tensor log_softmax_backward(const Tensor& grad, const Tensor& y, std::int64_t axis = -1);

}  // namespace tensorlite
