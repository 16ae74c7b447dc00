// The operators of the torch_ext example (CPU; the CUDA kernels are in cuda/). Every
// function takes contiguous tensors whose last dimension is the one reduced or biased;
// the Python wrapper (torch_ext/functional.py) moves dimensions and makes them contiguous.
#pragma once

#include <ATen/ATen.h>

#include <tuple>

namespace torch_ext {

// y = softmax(scale * x) over the last dimension.
at::Tensor softmax_forward(const at::Tensor& x, double scale);
// dx = scale * y * (dy - sum(dy * y)) per row.
at::Tensor softmax_backward(const at::Tensor& dy, const at::Tensor& y, double scale);

// y = x * rstd * weight with rstd = 1 / sqrt(mean(x^2) + eps) per row; returns (y, rstd)
// (rstd in float for half/bfloat16 inputs, else the input dtype). `weight` may be
// undefined (no affine weight).
std::tuple<at::Tensor, at::Tensor> rms_norm_forward(const at::Tensor& x, const at::Tensor& weight, double eps);
// Returns (dx, dweight); dweight is undefined when weight is.
std::tuple<at::Tensor, at::Tensor> rms_norm_backward(const at::Tensor& dy, const at::Tensor& x,
                                                     const at::Tensor& weight, const at::Tensor& rstd);

// y = gelu(x + bias), bias over the last dimension; approximate 0 = exact (erf), 1 = tanh.
at::Tensor bias_gelu_forward(const at::Tensor& x, const at::Tensor& bias, int64_t approximate);
// Returns (dx, dbias), dbias summed over all rows.
std::tuple<at::Tensor, at::Tensor> bias_gelu_backward(const at::Tensor& dy, const at::Tensor& x,
                                                      const at::Tensor& bias, int64_t approximate);

}  // namespace torch_ext
