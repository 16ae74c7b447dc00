// Launch geometry and tile arithmetic shared by the CUDA kernels (cuda/) and the CPU
// paths that mirror them, so a geometry bug also shows on machines without a GPU.
// Kept free of standard-library headers beyond <cstdint> so nvcc and clang's CUDA
// front end can include it cheaply.
#pragma once

#include <cstdint>

namespace tensorlite {

inline constexpr int kElementwiseBlock = 256;  // threads per block, element-wise kernels
inline constexpr int kSoftmaxBlock = 128;      // threads per row, softmax kernel
inline constexpr int kMatmulTile = 16;         // square tile edge, tiled matmul
inline constexpr std::int64_t kMaxGridX = 2147483647;

// Number of blocks of `block` threads needed to cover `n` items (ceil(n / block)).
// Throws ArgumentError for a non-positive block.
std::int64_t compute_grid(std::int64_t n, std::int64_t block);

// Elements [begin, end) of tile `index` when `n` elements are cut into tiles of `tile`.
struct TileSpan {
  std::int64_t begin;
  std::int64_t end;
};
TileSpan tile_span(std::int64_t index, std::int64_t tile, std::int64_t n);

// CUDA's (x, y, z) launch grid.
struct GridDims {
  std::int64_t x;
  std::int64_t y;
  std::int64_t z;
};

// Tiled matmul grid: x walks column tiles, y row tiles, z the batch (CUDA's convention,
// x varies fastest).
GridDims matmul_grid(std::int64_t rows, std::int64_t cols, std::int64_t batch);

// Element-wise grid, capped at kMaxGridX blocks; kernels use a grid-stride loop so
// the cap loses no elements.
std::int64_t elementwise_grid(std::int64_t n);

}  // namespace tensorlite
