// Row-wise softmax: one block per row, max and sum reduced in shared memory.
#include <cuda_runtime.h>

#include "tensorlite/cuda_ops.h"
#include "tensorlite/launch_geometry.h"

namespace tensorlite::cuda {

namespace {

// Tree reduction over the block; kSoftmaxBlock is a power of two.
template <typename Op>
__device__ float block_reduce(float* scratch, float value, Op op) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      scratch[threadIdx.x] = op(scratch[threadIdx.x], scratch[threadIdx.x + half]);
    }
    __syncthreads();
  }
  const float result = scratch[0];
  __syncthreads();  // scratch is reused by the next reduction
  return result;
}

struct MaxOp {
  __device__ float operator()(float x, float y) const { return fmaxf(x, y); }
};
struct SumOp {
  __device__ float operator()(float x, float y) const { return x + y; }
};

__global__ void softmax_rows_f32_kernel(const float* x, float* out, std::int64_t cols) {
  __shared__ float scratch[kSoftmaxBlock];
  const float* row = x + static_cast<std::int64_t>(blockIdx.x) * cols;
  float* out_row = out + static_cast<std::int64_t>(blockIdx.x) * cols;
  // Same stabilisation as the CPU path: subtract the row max before exp.
  float local_max = -__int_as_float(0x7f800000);
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    local_max = fmaxf(local_max, row[c]);
  }
  const float row_max = block_reduce(scratch, local_max, MaxOp{});
  float local_sum = 0.0f;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    local_sum += expf(row[c] - row_max);
  }
  const float total = block_reduce(scratch, local_sum, SumOp{});
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    out_row[c] = expf(row[c] - row_max) / total;
  }
}

}  // namespace

int softmax_rows_f32(const float* x, float* out, std::int64_t rows, std::int64_t cols) {
  if (rows <= 0 || cols <= 0) {
    return static_cast<int>(cudaSuccess);
  }
  softmax_rows_f32_kernel<<<static_cast<unsigned int>(rows), kSoftmaxBlock>>>(x, out, cols);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace tensorlite::cuda
