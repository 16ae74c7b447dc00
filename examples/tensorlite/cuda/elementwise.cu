// CUDA element-wise kernels; their grid comes from launch_geometry.h, shared with the CPU path.
#include <cuda_runtime.h>

#include "tensorlite/cuda_ops.h"
#include "tensorlite/launch_geometry.h"

namespace tensorlite::cuda {

namespace {

// Grid-stride loops: correct for any grid size, so elementwise_grid may cap the grid.
__global__ void add_f32_kernel(const float* a, const float* b, float* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    out[i] = a[i] + b[i];
  }
}

__global__ void relu_f32_kernel(const float* x, float* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    out[i] = x[i] > 0.0f ? x[i] : 0.0f;
  }
}

}  // namespace

int add_f32(const float* a, const float* b, float* out, std::int64_t n) {
  if (n <= 0) {
    return static_cast<int>(cudaSuccess);
  }
  const auto blocks = static_cast<unsigned int>(elementwise_grid(n));
  add_f32_kernel<<<blocks, kElementwiseBlock>>>(a, b, out, n);
  return static_cast<int>(cudaGetLastError());
}

int relu_f32(const float* x, float* out, std::int64_t n) {
  if (n <= 0) {
    return static_cast<int>(cudaSuccess);
  }
  const auto blocks = static_cast<unsigned int>(elementwise_grid(n));
  relu_f32_kernel<<<blocks, kElementwiseBlock>>>(x, out, n);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace tensorlite::cuda
