// Shape arithmetic and NumPy-style broadcasting.
#include "tensorlite/shape.h"

#include <cstddef>

#include "tensorlite/error.h"

namespace tensorlite {

std::int64_t shape_numel(const Shape& shape) {
  std::int64_t n = 1;
  for (const std::int64_t d : shape) {
    n *= d;
  }
  return n;
}

Strides contiguous_strides(const Shape& shape) {
  Strides strides(shape.size(), 1);
  std::int64_t running = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = running;
    // A zero-sized dimension must not zero the strides of the dimensions before it.
    running *= shape[i] > 0 ? shape[i] : 1;
  }
  return strides;
}

std::string shape_to_string(const Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) {
      text += ", ";
    }
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank) {
  const std::int64_t wrapped = axis < 0 ? axis + rank : axis;
  if (wrapped < 0 || wrapped >= rank) {
    throw ArgumentError("axis " + std::to_string(axis) + " is out of range for a tensor of rank " +
                        std::to_string(rank));
  }
  return wrapped;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const std::size_t rank = a.size() > b.size() ? a.size() : b.size();
  const std::size_t lead_a = rank - a.size();
  const std::size_t lead_b = rank - b.size();
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < lead_a ? 1 : a[i - lead_a];
    const std::int64_t db = i < lead_b ? 1 : b[i - lead_b];
    if (da != db && da != 1 && db != 1) {
      throw ShapeError("shapes " + shape_to_string(a) + " and " + shape_to_string(b) +
                       " are not broadcastable (dimension " + std::to_string(i) + ": " +
                       std::to_string(da) + " vs " + std::to_string(db) + ")");
    }
    // Not max(da, db): a size-0 dimension broadcast against size 1 stays empty.
#if TENSORLITE_FAULT_BROADCAST_ZERO_SIZE
    out[i] = da > db ? da : db;
#else
    out[i] = da == 1 ? db : da;
#endif
  }
  return out;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target) {
  if (shape.size() > target.size()) {
    throw ShapeError("cannot broadcast " + shape_to_string(shape) + " to the lower-rank shape " +
                     shape_to_string(target));
  }
  const std::size_t lead = target.size() - shape.size();
  Strides out(target.size(), 0);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::int64_t want = target[lead + i];
    if (shape[i] == want) {
      out[lead + i] = strides[i];
    } else if (shape[i] != 1) {
      throw ShapeError("cannot broadcast " + shape_to_string(shape) + " to " +
                       shape_to_string(target));
    }
  }
  return out;
}

}  // namespace tensorlite
