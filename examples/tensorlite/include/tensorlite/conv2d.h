// 2-D convolution (NCHW, cross-correlation as in every DL framework) and its backward.
#pragma once

#include <cstdint>

#include "tensorlite/tensor.h"

namespace tensorlite {

struct Conv2dParams {
  std::int64_t stride_h = 1;
  std::int64_t stride_w = 1;
  std::int64_t pad_h = 0;  // zero padding on each side
  std::int64_t pad_w = 0;

  static Conv2dParams square(std::int64_t stride, std::int64_t pad) {
    return {stride, stride, pad, pad};
  }
};

// floor((in + 2 pad - kernel) / stride) + 1; throws ShapeError when the kernel does not fit.
std::int64_t conv_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                              std::int64_t pad);

// input [N, C, H, W], weight [O, C, KH, KW], bias [O] or undefined -> [N, O, OH, OW].
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
              const Conv2dParams& params = {});

struct Conv2dGrads {
  Tensor grad_input;
  Tensor grad_weight;
  Tensor grad_bias;  // undefined when the forward had no bias
};
Conv2dGrads conv2d_backward(const Tensor& grad_output, const Tensor& input,
                            const Tensor& weight, bool has_bias,
                            const Conv2dParams& params = {});

}  // namespace tensorlite
