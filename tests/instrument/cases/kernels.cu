// CUDA fixture for the instrumenter: kernels, a device template, a host-device helper, a
// device lambda and a host launcher. Parsed by clang in CUDA mode, compiled by nvcc.
#include <cuda_runtime.h>

namespace fixture {

__host__ __device__ inline int clamp_index(int i, int n) {
  if (i < 0) return 0;
  return i < n ? i : n - 1;
}

template <typename T>
__device__ T twice(T x) {
  return x + x;
}

__global__ void scale(float* data, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto times = [factor](float v) { return v * factor; };
  data[clamp_index(i, n)] = twice(times(data[i]));
}

}  // namespace fixture

int launch_scale(float* data, int n) {
  if (n <= 0) return 0;
  fixture::scale<<<(n + 127) / 128, 128>>>(data, n, 2.0f);
  return static_cast<int>(cudaGetLastError()) + fixture::clamp_index(n, 4);
}
