// Softmax and log-softmax along an axis, computed in the accumulation type like the GPU kernel.
#include "tensorlite/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernel_utils.h"
#include "tensorlite/error.h"

namespace tensorlite {

namespace {

struct AxisInput {
  Tensor x;  // floating, contiguous
  std::int64_t axis;
};

AxisInput prepare(const Tensor& x, std::int64_t axis) {
  const std::int64_t d = normalize_axis(axis, x.dim());
  return {x.to(detail::floating_dtype(x.dtype())).contiguous(), d};
}

void check_backward_shapes(const Tensor& grad, const Tensor& y, const char* op) {
  if (grad.shape() != y.shape()) {
    throw ShapeError(std::string(op) + ": gradient shape " + shape_to_string(grad.shape()) +
                     " differs from output shape " + shape_to_string(y.shape()));
  }
}

template <typename Acc, typename T>
Acc lane_max(const T* in, std::int64_t base, std::int64_t step, std::int64_t length) {
  Acc best = -std::numeric_limits<Acc>::infinity();
  for (std::int64_t k = 0; k < length; ++k) {
    best = std::max(best, to_acc(in[base + k * step]));
  }
  return best;
}

}  // namespace

Tensor softmax(const Tensor& x, std::int64_t axis) {
  const AxisInput in = prepare(x, axis);
  Tensor out = Tensor::empty(in.x.shape(), in.x.dtype());
  detail::visit_floating(in.x.dtype(), "softmax", [&]<typename T>() {
    using Acc = acc_t<T>;
    const T* px = in.x.data<T>();
    T* po = out.data<T>();
    std::vector<Acc> e;
    detail::for_each_lane(in.x.shape(), in.axis, [&](std::int64_t base, std::int64_t step,
                                                     std::int64_t length) {
      // exp(x - max) <= 1 cannot overflow, and the largest term is exactly 1 so the
      // sum cannot underflow to 0; the shift cancels in the ratio.
#if TENSORLITE_FAULT_SOFTMAX_MAX_SHIFT
      const Acc shift = Acc(0);
#else
      const Acc shift = lane_max<Acc>(px, base, step, length);
#endif
      e.assign(static_cast<std::size_t>(length), Acc(0));
      Acc total = 0;
      for (std::int64_t k = 0; k < length; ++k) {
        e[static_cast<std::size_t>(k)] = std::exp(to_acc(px[base + k * step]) - shift);
        total += e[static_cast<std::size_t>(k)];
      }
      for (std::int64_t k = 0; k < length; ++k) {
        po[base + k * step] = from_acc<T>(e[static_cast<std::size_t>(k)] / total);
      }
    });
  });
  return out;
}

Tensor log_softmax(const Tensor& x, std::int64_t axis) {
  const AxisInput in = prepare(x, axis);
  Tensor out = Tensor::empty(in.x.shape(), in.x.dtype());
  detail::visit_floating(in.x.dtype(), "log_softmax", [&]<typename T>() {
    using Acc = acc_t<T>;
    const T* px = in.x.data<T>();
    T* po = out.data<T>();
    detail::for_each_lane(in.x.shape(), in.axis, [&](std::int64_t base, std::int64_t step,
                                                     std::int64_t length) {
      // log-sum-exp with the max factored out: log(sum exp(x)) = m + log(sum exp(x - m)).
      const Acc shift = lane_max<Acc>(px, base, step, length);
      Acc total = 0;
      for (std::int64_t k = 0; k < length; ++k) {
        total += std::exp(to_acc(px[base + k * step]) - shift);
      }
      const Acc log_total = std::log(total);
      for (std::int64_t k = 0; k < length; ++k) {
        po[base + k * step] = from_acc<T>(to_acc(px[base + k * step]) - shift - log_total);
      }
    });
  });
  return out;
}

Tensor softmax_backward(const Tensor& grad, const Tensor& y, std::int64_t axis) {
  check_backward_shapes(grad, y, "softmax_backward");
  const AxisInput out_y = prepare(y, axis);
  const Tensor g = grad.to(out_y.x.dtype()).contiguous();
  Tensor dx = Tensor::empty(g.shape(), g.dtype());
  detail::visit_floating(g.dtype(), "softmax_backward", [&]<typename T>() {
    using Acc = acc_t<T>;
    const T* pg = g.data<T>();
    const T* py = out_y.x.data<T>();
    T* pd = dx.data<T>();
    detail::for_each_lane(g.shape(), out_y.axis, [&](std::int64_t base, std::int64_t step,
                                                     std::int64_t length) {
      // Jacobian-vector product of softmax: dx = y * (g - <g, y>).
      Acc dot = 0;
      for (std::int64_t k = 0; k < length; ++k) {
        dot += to_acc(pg[base + k * step]) * to_acc(py[base + k * step]);
      }
      for (std::int64_t k = 0; k < length; ++k) {
        const std::int64_t at = base + k * step;
        pd[at] = from_acc<T>(to_acc(py[at]) * (to_acc(pg[at]) - dot));
      }
    });
  });
  return dx;
}

Tensor log_softmax_backward(const Tensor& grad, const Tensor& y, std::int64_t axis) {
  check_backward_shapes(grad, y, "log_softmax_backward");
  const AxisInput out_y = prepare(y, axis);
  const Tensor g = grad.to(out_y.x.dtype()).contiguous();
  Tensor dx = Tensor::empty(g.shape(), g.dtype());
  detail::visit_floating(g.dtype(), "log_softmax_backward", [&]<typename T>() {
    using Acc = acc_t<T>;
    const T* pg = g.data<T>();
    const T* py = out_y.x.data<T>();
    T* pd = dx.data<T>();
    detail::for_each_lane(g.shape(), out_y.axis, [&](std::int64_t base, std::int64_t step,
                                                     std::int64_t length) {
      // dx = g - softmax(x) * sum(g), with softmax(x) = exp(y).
      Acc total = 0;
      for (std::int64_t k = 0; k < length; ++k) {
        total += to_acc(pg[base + k * step]);
      }
      for (std::int64_t k = 0; k < length; ++k) {
        const std::int64_t at = base + k * step;
        pd[at] = from_acc<T>(to_acc(pg[at]) - std::exp(to_acc(py[at])) * total);
      }
    });
  });
  return dx;
}

}  // namespace tensorlite
