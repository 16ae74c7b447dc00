// Axis reductions (sum, mean, max) and their backward functions.
#include "tensorlite/reduction.h"

#include <cstddef>
#include <string>

#include "kernel_utils.h"
#include "tensorlite/elementwise.h"
#include "tensorlite/error.h"

namespace tensorlite {

namespace {

Shape reduced_shape(const Shape& shape, std::int64_t axis, bool keepdim) {
  Shape out = shape;
  if (keepdim) {
    out[static_cast<std::size_t>(axis)] = 1;
  } else {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(axis));
  }
  return out;
}

// The gradient of a keepdim=false reduction lacks the reduced axis; put it back so the
// gradient broadcasts against the input.
Tensor restore_reduced_axis(const Tensor& grad, const Shape& input_shape, std::int64_t axis,
                            bool keepdim) {
  const std::int64_t rank = static_cast<std::int64_t>(input_shape.size());
  const std::int64_t d = normalize_axis(axis, rank);
  const Tensor g = keepdim ? grad : grad.unsqueeze(d);
  if (g.dim() != rank) {
    throw ShapeError("reduction backward: gradient shape " + shape_to_string(grad.shape()) +
                     " does not match input shape " + shape_to_string(input_shape));
  }
  return g;
}

}  // namespace

Tensor sum(const Tensor& x, std::int64_t axis, bool keepdim) {
  const std::int64_t d = normalize_axis(axis, x.dim());
  const Tensor xc = x.contiguous();
  const detail::AxisSplit split = detail::split_at_axis(xc.shape(), d);
  Tensor out = Tensor::empty(reduced_shape(xc.shape(), d, keepdim), x.dtype());
  visit_dtype(x.dtype(), [&]<typename T>() {
    const T* in = xc.data<T>();
    T* po = out.data<T>();
    for (std::int64_t o = 0; o < split.outer; ++o) {
      for (std::int64_t i = 0; i < split.inner; ++i) {
        // Sequential double accumulation: deterministic and exact for integers < 2^53.
        double total = 0.0;
        for (std::int64_t k = 0; k < split.length; ++k) {
          total += to_double(in[(o * split.length + k) * split.inner + i]);
        }
        po[o * split.inner + i] = from_double<T>(total);
      }
    }
  });
  return out;
}

Tensor sum(const Tensor& x) { return sum(x.reshape({x.numel()}), 0); }

Tensor mean(const Tensor& x, std::int64_t axis, bool keepdim) {
  if (!is_floating(x.dtype())) {
    throw DTypeError("mean of an integer tensor; convert it with to() first");
  }
  const std::int64_t count = x.size(axis);
  const Tensor total = sum(x, axis, keepdim);
  return mul_scalar(total, 1.0 / static_cast<double>(count));
}

Tensor mean(const Tensor& x) { return mean(x.reshape({x.numel()}), 0); }

MaxResult max(const Tensor& x, std::int64_t axis, bool keepdim) {
  const std::int64_t d = normalize_axis(axis, x.dim());
  if (x.size(d) == 0) {
    throw ArgumentError("max over an empty axis has no identity");
  }
  const Tensor xc = x.contiguous();
  const detail::AxisSplit split = detail::split_at_axis(xc.shape(), d);
  const Shape out_shape = reduced_shape(xc.shape(), d, keepdim);
  MaxResult result{Tensor::empty(out_shape, x.dtype()), Tensor::empty(out_shape, DType::Int64)};
  visit_dtype(x.dtype(), [&]<typename T>() {
    const T* in = xc.data<T>();
    T* values = result.values.data<T>();
    std::int64_t* indices = result.indices.data<std::int64_t>();
    for (std::int64_t o = 0; o < split.outer; ++o) {
      for (std::int64_t i = 0; i < split.inner; ++i) {
        const T* lane = in + o * split.length * split.inner + i;
        std::int64_t best = 0;
        for (std::int64_t k = 1; k < split.length; ++k) {
          if (to_acc(lane[k * split.inner]) > to_acc(lane[best * split.inner])) {
            best = k;
          }
        }
        values[o * split.inner + i] = lane[best * split.inner];
        indices[o * split.inner + i] = best;
      }
    }
  });
  return result;
}

Tensor sum_to_shape(const Tensor& grad, const Shape& shape) {
  if (grad.shape() == shape) {
    return grad;
  }
  const std::int64_t lead = grad.dim() - static_cast<std::int64_t>(shape.size());
  if (lead < 0) {
    throw ShapeError("sum_to_shape: " + shape_to_string(grad.shape()) + " has lower rank than " +
                     shape_to_string(shape));
  }
  Tensor reduced = grad;
  for (std::int64_t i = 0; i < lead; ++i) {
    reduced = sum(reduced, 0);
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1 && reduced.shape()[i] != 1) {
      reduced = sum(reduced, static_cast<std::int64_t>(i), /*keepdim=*/true);
    }
  }
  if (reduced.shape() != shape) {
    throw ShapeError("sum_to_shape: " + shape_to_string(grad.shape()) +
                     " was not broadcast from " + shape_to_string(shape));
  }
  return reduced;
}

Tensor sum_backward(const Tensor& grad, const Shape& input_shape, std::int64_t axis,
                    bool keepdim) {
  return restore_reduced_axis(grad, input_shape, axis, keepdim).expand(input_shape).contiguous();
}

Tensor mean_backward(const Tensor& grad, const Shape& input_shape, std::int64_t axis,
                     bool keepdim) {
  const std::int64_t count =
      input_shape[static_cast<std::size_t>(normalize_axis(axis, static_cast<std::int64_t>(
                                                                     input_shape.size())))];
  return mul_scalar(sum_backward(grad, input_shape, axis, keepdim),
                    1.0 / static_cast<double>(count));
}

Tensor max_backward(const Tensor& grad, const Tensor& indices, const Shape& input_shape,
                    std::int64_t axis, bool keepdim) {
  const std::int64_t d = normalize_axis(axis, static_cast<std::int64_t>(input_shape.size()));
  const Tensor g = restore_reduced_axis(grad, input_shape, d, keepdim).contiguous();
  const Tensor idx = restore_reduced_axis(indices, input_shape, d, keepdim).contiguous();
  Tensor out = Tensor::zeros(input_shape, g.dtype());
  const detail::AxisSplit split = detail::split_at_axis(input_shape, d);
  visit_dtype(g.dtype(), [&]<typename T>() {
    const T* pg = g.data<T>();
    const std::int64_t* pi = idx.data<std::int64_t>();
    T* po = out.data<T>();
    // Only the arg-max receives gradient; ties went to the first index in the forward.
    for (std::int64_t o = 0; o < split.outer; ++o) {
      for (std::int64_t i = 0; i < split.inner; ++i) {
        const std::int64_t k = pi[o * split.inner + i];
        po[(o * split.length + k) * split.inner + i] = pg[o * split.inner + i];
      }
    }
  });
  return out;
}

}  // namespace tensorlite
