// Grid and tile arithmetic shared by the CUDA launchers and the CPU tiled kernels.
#include "tensorlite/launch_geometry.h"

#include <algorithm>
#include <string>

#include "tensorlite/error.h"

namespace tensorlite {

std::int64_t compute_grid(std::int64_t n, std::int64_t block) {
  if (block <= 0) {
    throw ArgumentError("compute_grid: block size must be positive, got " + std::to_string(block));
  }
  if (n <= 0) {
    return 0;
  }
#if TENSORLITE_FAULT_GRID_CEIL_DIV
  return n / block;
#else
  return (n + block - 1) / block;
#endif
}

TileSpan tile_span(std::int64_t index, std::int64_t tile, std::int64_t n) {
  const std::int64_t begin = index * tile;
  // The last tile is ragged when n is not a multiple of tile; kernels guard on `end`.
  return {begin, std::min(begin + tile, n)};
}

GridDims matmul_grid(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  return {compute_grid(cols, kMatmulTile), compute_grid(rows, kMatmulTile), batch};
}

std::int64_t elementwise_grid(std::int64_t n) {
  return std::min(compute_grid(n, kElementwiseBlock), kMaxGridX);
}

}  // namespace tensorlite
