// Registers the example's CPU operators with the PyTorch dispatcher as torch.ops.torch_ext.*
// (TORCH_LIBRARY needs no pybind11). Built by build.py with torch.utils.cpp_extension into
// libtorch_ext_C.so; torch_ext/_ops.py loads it and functional.py wraps the operators.
#include <torch/library.h>

#include "ops.h"

namespace {

// The schema takes `Tensor? weight`: Python's None arrives as an empty optional.
std::tuple<at::Tensor, at::Tensor> rms_norm_forward_op(const at::Tensor& x, const c10::optional<at::Tensor>& weight,
                                                       double eps) {
  return torch_ext::rms_norm_forward(x, weight.value_or(at::Tensor()), eps);
}

std::tuple<at::Tensor, at::Tensor> rms_norm_backward_op(const at::Tensor& dy, const at::Tensor& x,
                                                        const c10::optional<at::Tensor>& weight,
                                                        const at::Tensor& rstd) {
  auto [dx, dw] = torch_ext::rms_norm_backward(dy, x, weight.value_or(at::Tensor()), rstd);
  // An undefined tensor cannot cross the dispatcher as a non-optional return: use an empty one.
  return {dx, dw.defined() ? dw : at::empty({0}, x.options())};
}

}  // namespace

TORCH_LIBRARY(torch_ext, m) {
  m.def("softmax_forward", &torch_ext::softmax_forward);
  m.def("softmax_backward", &torch_ext::softmax_backward);
  m.def("rms_norm_forward", &rms_norm_forward_op);
  m.def("rms_norm_backward", &rms_norm_backward_op);
  m.def("bias_gelu_forward", &torch_ext::bias_gelu_forward);
  m.def("bias_gelu_backward", &torch_ext::bias_gelu_backward);
}
