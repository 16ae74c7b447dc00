// Shared-memory tiled matmul; src/matmul.cpp walks the same tile grid on the CPU.
#include <cuda_runtime.h>

#include "tensorlite/cuda_ops.h"
#include "tensorlite/launch_geometry.h"

namespace tensorlite::cuda {

namespace {

// One kMatmulTile x kMatmulTile block per output tile. k_tiles comes from the host's
// compute_grid(k, kMatmulTile), the same count the CPU kernel loops over.
__global__ void matmul_f32_kernel(const float* a, const float* b, float* c, std::int64_t m,
                                  std::int64_t n, std::int64_t k, std::int64_t k_tiles) {
  __shared__ float a_tile[kMatmulTile][kMatmulTile];
  __shared__ float b_tile[kMatmulTile][kMatmulTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.y) * kMatmulTile + ty;
  const std::int64_t col = static_cast<std::int64_t>(blockIdx.x) * kMatmulTile + tx;
  float acc = 0.0f;
  for (std::int64_t t = 0; t < k_tiles; ++t) {
    // Ragged edges load zeros, so the inner product needs no bounds checks.
    const std::int64_t a_col = t * kMatmulTile + tx;
    const std::int64_t b_row = t * kMatmulTile + ty;
    a_tile[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < kMatmulTile; ++i) {
      acc += a_tile[ty][i] * b_tile[i][tx];
    }
    __syncthreads();  // the next iteration overwrites the tiles
  }
  if (row < m && col < n) {
    c[row * n + col] = acc;
  }
}

}  // namespace

int matmul_f32(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n,
               std::int64_t k) {
  if (m <= 0 || n <= 0) {
    return static_cast<int>(cudaSuccess);
  }
  const GridDims grid = matmul_grid(m, n, 1);
  const dim3 blocks(static_cast<unsigned int>(grid.x), static_cast<unsigned int>(grid.y),
                    static_cast<unsigned int>(grid.z));
  const dim3 threads(kMatmulTile, kMatmulTile);
  matmul_f32_kernel<<<blocks, threads>>>(a, b, c, m, n, k, compute_grid(k, kMatmulTile));
  return static_cast<int>(cudaGetLastError());
}

}  // namespace tensorlite::cuda
