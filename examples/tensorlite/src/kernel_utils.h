// Strided loops and dtype-generic element maps shared by the CPU kernels (private header).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tensorlite/dtype.h"
#include "tensorlite/error.h"
#include "tensorlite/shape.h"
#include "tensorlite/tensor.h"

namespace tensorlite::detail {

// Visits every index of `shape` in row-major order and passes f one element offset per
// operand. Offsets advance by each operand's strides, so transposed, sliced and broadcast
// (stride 0) views are read in place without index arithmetic per element.
template <std::size_t N, typename F>
void for_each_offset(const Shape& shape, const std::array<Strides, N>& strides, F&& f) {
  const std::int64_t total = shape_numel(shape);
  if (total == 0) {
    return;
  }
  const std::size_t rank = shape.size();
  std::vector<std::int64_t> index(rank, 0);
  std::array<std::int64_t, N> offsets{};
  for (std::int64_t n = 0; n < total; ++n) {
    f(offsets);
    for (std::size_t d = rank; d-- > 0;) {
      ++index[d];
      for (std::size_t k = 0; k < N; ++k) {
        offsets[k] += strides[k][d];
      }
      if (index[d] < shape[d]) {
        break;
      }
      for (std::size_t k = 0; k < N; ++k) {
        offsets[k] -= strides[k][d] * shape[d];
      }
      index[d] = 0;
    }
  }
}

// out[i] = op(a[i], b[i]) over the broadcast shape, computing in `dtype` (inputs of
// another dtype are converted first). op receives and returns acc_t values.
template <typename Op>
Tensor map_binary(const Tensor& a, const Tensor& b, DType dtype, Op op) {
  const Shape out_shape = broadcast_shapes(a.shape(), b.shape());
  const Tensor ac = a.to(dtype);
  const Tensor bc = b.to(dtype);
  Tensor out = Tensor::empty(out_shape, dtype);
  visit_dtype(dtype, [&]<typename T>() {
    const T* pa = ac.data<T>();
    const T* pb = bc.data<T>();
    T* po = out.data<T>();
    const std::array<Strides, 3> strides = {
        broadcast_strides(ac.shape(), ac.strides(), out_shape),
        broadcast_strides(bc.shape(), bc.strides(), out_shape), out.strides()};
    for_each_offset<3>(out_shape, strides, [&](const std::array<std::int64_t, 3>& off) {
      po[off[2]] = from_acc<T>(op(to_acc(pa[off[0]]), to_acc(pb[off[1]])));
    });
  });
  return out;
}

// out[i] = op(x[i]) computing in `dtype`.
template <typename Op>
Tensor map_unary(const Tensor& x, DType dtype, Op op) {
  const Tensor xc = x.to(dtype);
  Tensor out = Tensor::empty(xc.shape(), dtype);
  visit_dtype(dtype, [&]<typename T>() {
    const T* px = xc.data<T>();
    T* po = out.data<T>();
    const std::array<Strides, 2> strides = {xc.strides(), out.strides()};
    for_each_offset<2>(xc.shape(), strides, [&](const std::array<std::int64_t, 2>& off) {
      po[off[1]] = from_acc<T>(op(to_acc(px[off[0]])));
    });
  });
  return out;
}

// The dtype a floating-only op computes in: floats keep theirs, integers become float32.
inline DType floating_dtype(DType dtype) {
  return is_floating(dtype) ? dtype : DType::Float32;
}

// Splits a contiguous shape around `axis` into [outer, length, inner] so axis kernels
// address element (o, k, i) as (o * length + k) * inner + i.
struct AxisSplit {
  std::int64_t outer;
  std::int64_t length;
  std::int64_t inner;
};

inline AxisSplit split_at_axis(const Shape& shape, std::int64_t axis) {
  AxisSplit split{1, shape[static_cast<std::size_t>(axis)], 1};
  for (std::int64_t d = 0; d < axis; ++d) {
    split.outer *= shape[static_cast<std::size_t>(d)];
  }
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < shape.size(); ++d) {
    split.inner *= shape[d];
  }
  return split;
}

// Like visit_dtype but instantiates f only for the floating types, for kernels that make
// no sense on integers; throws DTypeError naming `op` otherwise.
template <typename F>
decltype(auto) visit_floating(DType dtype, const char* op, F&& f) {
  switch (dtype) {
    case DType::Float16:
      return f.template operator()<Half>();
    case DType::Float32:
      return f.template operator()<float>();
    case DType::Float64:
      return f.template operator()<double>();
    case DType::Int32:
    case DType::Int64:
      break;
  }
  throw DTypeError(std::string(op) + " needs a floating tensor, got " +
                   std::string(dtype_name(dtype)));
}

// Calls f(base, step, length) for every 1-D lane along `axis` of a contiguous `shape`:
// lane element k lives at base + k * step.
template <typename F>
void for_each_lane(const Shape& shape, std::int64_t axis, F&& f) {
  const AxisSplit split = split_at_axis(shape, axis);
  for (std::int64_t o = 0; o < split.outer; ++o) {
    for (std::int64_t i = 0; i < split.inner; ++i) {
      f(o * split.length * split.inner + i, split.inner, split.length);
    }
  }
}

}  // namespace tensorlite::detail
