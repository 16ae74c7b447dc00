// Shapes, strides and the broadcasting rules every element-wise op follows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tensorlite {

using Shape = std::vector<std::int64_t>;
using Strides = std::vector<std::int64_t>;

std::int64_t shape_numel(const Shape& shape);

// Row-major (C order) strides, in elements.
Strides contiguous_strides(const Shape& shape);

std::string shape_to_string(const Shape& shape);

// Maps a possibly negative axis (Python style, -1 = last) into [0, rank); throws
// ArgumentError when out of range.
std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank);

// NumPy broadcasting: shapes align on the right, a dimension of size 1 stretches to the
// other one. Throws ShapeError naming both shapes when they are incompatible.
Shape broadcast_shapes(const Shape& a, const Shape& b);

// Strides that present a tensor of `shape`/`strides` as `target`: broadcast dimensions get
// stride 0 so every output index reads the one stored element. Throws ShapeError when
// `shape` does not broadcast to `target`.
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target);

}  // namespace tensorlite
