// Tensor views: operations that re-describe existing storage instead of copying it.
#include <algorithm>
#include <cstddef>
#include <string>

#include "tensorlite/error.h"
#include "tensorlite/tensor.h"

namespace tensorlite {

Tensor Tensor::transpose(std::int64_t axis0, std::int64_t axis1) const {
  check_defined("transpose");
  const auto a = static_cast<std::size_t>(normalize_axis(axis0, dim()));
  const auto b = static_cast<std::size_t>(normalize_axis(axis1, dim()));
  Shape shape = shape_;
  Strides strides = strides_;
  std::swap(shape[a], shape[b]);
  std::swap(strides[a], strides[b]);
  return Tensor(storage_, dtype_, shape, strides, offset_);
}

Tensor Tensor::permute(const std::vector<std::int64_t>& order) const {
  check_defined("permute");
  if (static_cast<std::int64_t>(order.size()) != dim()) {
    throw ArgumentError("permute: " + std::to_string(order.size()) + " axes for a tensor of rank " +
                        std::to_string(dim()));
  }
  std::vector<bool> seen(order.size(), false);
  Shape shape(order.size());
  Strides strides(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto source = static_cast<std::size_t>(normalize_axis(order[i], dim()));
    if (seen[source]) {
      throw ArgumentError("permute: axis " + std::to_string(order[i]) + " repeated");
    }
    seen[source] = true;
    shape[i] = shape_[source];
    strides[i] = strides_[source];
  }
  return Tensor(storage_, dtype_, shape, strides, offset_);
}

namespace {

// Resolves a single -1 from the element count, checking that the sizes multiply out.
Shape infer_shape(const Shape& requested, std::int64_t numel, const Shape& from) {
  Shape shape = requested;
  std::int64_t known = 1;
  std::size_t inferred = shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred != shape.size()) {
        throw ShapeError("reshape: more than one -1 in " + shape_to_string(requested));
      }
      inferred = i;
    } else if (shape[i] < 0) {
      throw ShapeError("reshape: negative dimension in " + shape_to_string(requested));
    } else {
      known *= shape[i];
    }
  }
  if (inferred != shape.size()) {
    if (known == 0 || numel % known != 0) {
      throw ShapeError("reshape: cannot infer -1 in " + shape_to_string(requested) +
                       " for shape " + shape_to_string(from));
    }
    shape[inferred] = numel / known;
    known *= shape[inferred];
  }
  if (known != numel) {
    throw ShapeError("reshape: shape " + shape_to_string(from) + " cannot become " +
                     shape_to_string(requested));
  }
  return shape;
}

}  // namespace

Tensor Tensor::reshape(const Shape& shape) const {
  check_defined("reshape");
  if (!is_contiguous()) {
    return contiguous().reshape(shape);
  }
  return view(shape);
}

Tensor Tensor::view(const Shape& shape) const {
  check_defined("view");
  if (!is_contiguous()) {
    throw ShapeError("view: tensor of shape " + shape_to_string(shape_) +
                     " is not contiguous; use reshape()");
  }
  Shape resolved = infer_shape(shape, numel(), shape_);
  Strides strides = contiguous_strides(resolved);
  return Tensor(storage_, dtype_, std::move(resolved), std::move(strides), offset_);
}

Tensor Tensor::slice(std::int64_t axis, std::int64_t start, std::int64_t end,
                     std::int64_t step) const {
  check_defined("slice");
  const auto d = static_cast<std::size_t>(normalize_axis(axis, dim()));
  if (step <= 0) {
    throw ArgumentError("slice: step must be positive, got " + std::to_string(step));
  }
  const std::int64_t extent = shape_[d];
  // Python semantics: negative bounds count from the end, out-of-range bounds clamp.
  const auto clamp = [extent](std::int64_t bound) {
    return std::clamp(bound < 0 ? bound + extent : bound, std::int64_t{0}, extent);
  };
  const std::int64_t first = clamp(start);
  const std::int64_t last = clamp(end);
  Shape shape = shape_;
  Strides strides = strides_;
  shape[d] = last > first ? (last - first + step - 1) / step : 0;
  strides[d] = strides_[d] * step;
#if TENSORLITE_FAULT_SLICE_OFFSET
  const std::int64_t offset = offset_ + first;
#else
  const std::int64_t offset = offset_ + first * strides_[d];
#endif
  return Tensor(storage_, dtype_, shape, strides, shape[d] == 0 ? offset_ : offset);
}

Tensor Tensor::select(std::int64_t axis, std::int64_t index) const {
  check_defined("select");
  const std::int64_t d = normalize_axis(axis, dim());
  const std::int64_t extent = shape_[static_cast<std::size_t>(d)];
  if (index < -extent || index >= extent) {
    throw ArgumentError("select: index " + std::to_string(index) + " out of range for size " +
                        std::to_string(extent));
  }
  const std::int64_t i = index < 0 ? index + extent : index;
  return slice(d, i, i + 1).squeeze(d);
}

Tensor Tensor::unsqueeze(std::int64_t axis) const {
  check_defined("unsqueeze");
  const auto d = static_cast<std::size_t>(normalize_axis(axis, dim() + 1));
  Shape shape = shape_;
  Strides strides = strides_;
  // Any stride works for a size-1 dimension; this one keeps a contiguous tensor contiguous.
  const std::int64_t stride = d < shape_.size() ? shape_[d] * strides_[d] : 1;
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(d), 1);
  strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(d), stride);
  return Tensor(storage_, dtype_, shape, strides, offset_);
}

Tensor Tensor::squeeze(std::int64_t axis) const {
  check_defined("squeeze");
  const auto d = static_cast<std::size_t>(normalize_axis(axis, dim()));
  if (shape_[d] != 1) {
    return *this;
  }
  Shape shape = shape_;
  Strides strides = strides_;
  shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(d));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(d));
  return Tensor(storage_, dtype_, shape, strides, offset_);
}

Tensor Tensor::expand(const Shape& shape) const {
  check_defined("expand");
  return Tensor(storage_, dtype_, shape, broadcast_strides(shape_, strides_, shape), offset_);
}

}  // namespace tensorlite
