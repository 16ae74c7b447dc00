// RMS normalisation over rows on the GPU: the CUDA twin of rms_norm.cpp's forward.
#include "block_reduce.cuh"
#include "kernels.h"

namespace torch_ext::cuda {
namespace {

template <typename T>
__global__ void rms_rows_kernel(const T* x, const T* weight, T* y, T* rstd, std::int64_t cols, double eps) {
  __shared__ T scratch[kBlock];
  const T* in = x + static_cast<std::int64_t>(blockIdx.x) * cols;
  T* out = y + static_cast<std::int64_t>(blockIdx.x) * cols;
  T local = 0;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x) local += in[c] * in[c];
  const T squares = block_reduce(scratch, local, Sum{});
  const T inv = static_cast<T>(rsqrt(static_cast<double>(squares) / static_cast<double>(cols) + eps));
  if (threadIdx.x == 0) rstd[blockIdx.x] = inv;
  for (std::int64_t c = threadIdx.x; c < cols; c += blockDim.x)
    out[c] = weight ? in[c] * inv * weight[c] : in[c] * inv;
}

}  // namespace

template <typename T>
cudaError_t rms_norm_forward(const T* x, const T* weight, T* y, T* rstd, std::int64_t rows, std::int64_t cols,
                             double eps, cudaStream_t stream) {
  if (rows == 0) return cudaSuccess;
  rms_rows_kernel<T><<<static_cast<unsigned int>(rows), kBlock, 0, stream>>>(x, weight, y, rstd, cols, eps);
  return cudaGetLastError();
}

template cudaError_t rms_norm_forward<float>(const float*, const float*, float*, float*, std::int64_t, std::int64_t,
                                             double, cudaStream_t);
template cudaError_t rms_norm_forward<double>(const double*, const double*, double*, double*, std::int64_t,
                                              std::int64_t, double, cudaStream_t);

}  // namespace torch_ext::cuda
