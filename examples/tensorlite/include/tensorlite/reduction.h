// Reductions over one axis (sum, mean, max) and their backward functions.
#pragma once

#include <cstdint>

#include "tensorlite/shape.h"
#include "tensorlite/tensor.h"

namespace tensorlite {

// With keepdim the reduced axis stays as size 1, so the result broadcasts against x.
Tensor sum(const Tensor& x, std::int64_t axis, bool keepdim = false);
Tensor sum(const Tensor& x);  // all elements -> 0-d tensor
Tensor mean(const Tensor& x, std::int64_t axis, bool keepdim = false);
Tensor mean(const Tensor& x);

struct MaxResult {
  Tensor values;
  Tensor indices;  // int64, first occurrence on ties
};
MaxResult max(const Tensor& x, std::int64_t axis, bool keepdim = false);

// Sums a broadcast gradient back down to `shape`: the reverse of broadcasting.
Tensor sum_to_shape(const Tensor& grad, const Shape& shape);

Tensor sum_backward(const Tensor& grad, const Shape& input_shape, std::int64_t axis,
                    bool keepdim);
Tensor mean_backward(const Tensor& grad, const Shape& input_shape, std::int64_t axis,
                     bool keepdim);
Tensor max_backward(const Tensor& grad, const Tensor& indices, const Shape& input_shape,
                    std::int64_t axis, bool keepdim);

}  // namespace tensorlite
