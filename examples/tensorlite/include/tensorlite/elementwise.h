// Broadcasting element-wise ops and their backward functions.
#pragma once

#include "tensorlite/shape.h"
#include "tensorlite/tensor.h"

namespace tensorlite {

// Binary ops broadcast (see broadcast_shapes) and compute in promote_types(a, b); div
// is true division, so integer inputs give float32.
Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor add_scalar(const Tensor& x, double value);
Tensor mul_scalar(const Tensor& x, double value);

// Unary ops. relu and neg keep the dtype; the transcendental ones need a floating
// input and turn integer tensors into float32.
Tensor neg(const Tensor& x);
Tensor relu(const Tensor& x);
Tensor gelu(const Tensor& x);  // exact erf form, not the tanh approximation
Tensor tanh(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);

struct BinaryGrads {
  Tensor grad_a;
  Tensor grad_b;
};

// Gradients of the binary ops, already reduced to each input's (pre-broadcast) shape.
BinaryGrads add_backward(const Tensor& grad, const Shape& a_shape, const Shape& b_shape);
BinaryGrads sub_backward(const Tensor& grad, const Shape& a_shape, const Shape& b_shape);
BinaryGrads mul_backward(const Tensor& grad, const Tensor& a, const Tensor& b);
BinaryGrads div_backward(const Tensor& grad, const Tensor& a, const Tensor& b);

// Unary backward functions take whichever of input x or output y the derivative is
// cheapest in, as autograd engines save them.
Tensor relu_backward(const Tensor& grad, const Tensor& x);
Tensor gelu_backward(const Tensor& grad, const Tensor& x);
Tensor tanh_backward(const Tensor& grad, const Tensor& y);
Tensor sigmoid_backward(const Tensor& grad, const Tensor& y);
Tensor exp_backward(const Tensor& grad, const Tensor& y);
Tensor log_backward(const Tensor& grad, const Tensor& x);

inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }

}  // namespace tensorlite
