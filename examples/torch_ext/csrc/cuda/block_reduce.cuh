// Block-wide sum and max over kBlock threads (shared memory tree reduction).
#pragma once

namespace torch_ext::cuda {

constexpr int kBlock = 256;

template <typename T, typename Op>
__device__ T block_reduce(T* scratch, T value, Op op) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) scratch[threadIdx.x] = op(scratch[threadIdx.x], scratch[threadIdx.x + half]);
    __syncthreads();
  }
  const T result = scratch[0];
  __syncthreads();  // scratch is reused by the next reduction
  return result;
}

struct Sum {
  template <typename T>
  __device__ T operator()(T a, T b) const { return a + b; }
};
struct Max {
  template <typename T>
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

}  // namespace torch_ext::cuda
