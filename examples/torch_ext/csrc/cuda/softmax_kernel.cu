// Scaled softmax over rows on the GPU: the CUDA twin of softmax.cpp's forward.
#include <cfloat>

#include "block_reduce.cuh"
#include "kernels.h"

namespace torch_ext::cuda {
namespace {

template <typename T>
__global__ void softmax_rows_kernel(const T* x, T* y, std::int64_t cols, T scale) {
  __shared__ T scratch[kBlock];
  const T* in = x + static_cast<std::int64_t>(blockIdx.x) * cols;
  T* out = y + static_cast<std::int64_t>(blockIdx.x) * cols;
  T local_max = -FLT_MAX;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) local_max = max(local_max, in[c] * scale);
  const T shift = block_reduce(scratch, local_max, Max{});
  T local_sum = 0;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) local_sum += exp(in[c] * scale - shift);
  const T sum = block_reduce(scratch, local_sum, Sum{});
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) out[c] = exp(in[c] * scale - shift) / sum;
}

}  // namespace

template <typename T>
cudaError_t softmax_forward(const T* x, T* y, std::int64_t rows, std::int64_t cols, T scale, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  softmax_rows_kernel<T><<<static_cast<unsigned int>(rows), kBlock, 0, stream>>>(x, y, cols, scale);
  return cudaGetLastError();
}

template cudaError_t softmax_forward<float>(const float*, float*, std::int64_t, std::int64_t, float, cudaStream_t);
template cudaError_t softmax_forward<double>(const double*, double*, std::int64_t, std::int64_t, double, cudaStream_t);

}  // namespace torch_ext::cuda
