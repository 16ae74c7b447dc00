// The GPU check's subject: small kernels whose device lines each test reaches are known in
// advance. A `//@ TEST...` marker names the tests that reach its line; every probed line
// carries one, and scripts/gpu_check/verdict.py compares them with the snapshot. FAULT marks
// the seeded GPU-only fault (GPU_CHECK_FAULT=window_bound: the window's right end reads one
// past the row, which the tests' CPU reference does not), PARTIAL a line only some threads
// of a launch reach.
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>

#include "kernels.h"

namespace gpu_check {

namespace {

constexpr int kBlock = 128;

int blocks_for(int n) {  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange CountAbove.SomeAbove CountAbove.NoneAbove WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow Normalize.ByFour Scatter.Reverses DeviceTrap.ClampThenScatterToNull
  return (n + kBlock - 1) / kBlock;  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange CountAbove.SomeAbove CountAbove.NoneAbove WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow Normalize.ByFour Scatter.Reverses DeviceTrap.ClampThenScatterToNull
}

// Read per launch, so one build serves the correct and the faulty run.
int window_fault() {  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  const char* fault = std::getenv("GPU_CHECK_FAULT");  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  return fault != nullptr && std::strcmp(fault, "window_bound") == 0 ? 1 : 0;  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
}

__device__ float clamp_one(float v, float lo, float hi) {  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
  if (v < lo) {  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
    return lo;  //@ Clamp.OneBelowInPartialBlock PARTIAL
  }
  if (v > hi) {  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
    return hi;  //@ Clamp.AboveRange
  }
  return v;  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
}

__global__ void clamp_kernel(const float* in, float* out, int n, float lo, float hi) {  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
  if (i >= n) {  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
    return;  //@ Clamp.OneBelowInPartialBlock PARTIAL
  }
  out[i] = clamp_one(in[i], lo, hi);  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
}

__global__ void count_above_kernel(const float* in, int n, float threshold, int* count) {  //@ CountAbove.SomeAbove CountAbove.NoneAbove
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  //@ CountAbove.SomeAbove CountAbove.NoneAbove
  if (i < n && in[i] > threshold) {  //@ CountAbove.SomeAbove CountAbove.NoneAbove
    atomicAdd(count, 1);  //@ CountAbove.SomeAbove
  }
}

__global__ void window_sum_kernel(const float* in, float* out, int n, int radius, int fault) {  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  if (i >= n) {  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
    return;  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  }
  if (radius == 0) {  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
    out[i] = in[i];  //@ WindowSum.RadiusZeroCopies
    return;  //@ WindowSum.RadiusZeroCopies
  }
  const int first = i - radius < 0 ? 0 : i - radius;  //@ WindowSum.RadiusTwo WindowSum.WholeRow
  const int last = i + radius < n - 1 + fault ? i + radius : n - 1 + fault;  //@ WindowSum.RadiusTwo WindowSum.WholeRow FAULT
  float sum = 0.0f;  //@ WindowSum.RadiusTwo WindowSum.WholeRow
  for (int j = first; j <= last; ++j) {  //@ WindowSum.RadiusTwo WindowSum.WholeRow
    sum += in[j];  //@ WindowSum.RadiusTwo WindowSum.WholeRow
  }
  out[i] = sum;  //@ WindowSum.RadiusTwo WindowSum.WholeRow
}

__global__ void normalize_kernel(float* data, int n, float norm) {  //@ Normalize.ByFour
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  //@ Normalize.ByFour
  if (i < n) {  //@ Normalize.ByFour
    data[i] /= norm;  //@ Normalize.ByFour
  }
}

__global__ void scatter_kernel(const float* in, const int* index, float* out, int n) {  //@ Scatter.Reverses DeviceTrap.ClampThenScatterToNull
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  //@ Scatter.Reverses DeviceTrap.ClampThenScatterToNull
  if (i < n) {  //@ Scatter.Reverses DeviceTrap.ClampThenScatterToNull
    out[index[i]] = in[i];  //@ Scatter.Reverses DeviceTrap.ClampThenScatterToNull
  }
}

}  // namespace

int clamp(const float* in, float* out, int n, float lo, float hi) {  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
  clamp_kernel<<<blocks_for(n), kBlock>>>(in, out, n, lo, hi);  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
  return static_cast<int>(cudaGetLastError());  //@ Clamp.InRange Clamp.OneBelowInPartialBlock Clamp.AboveRange DeviceTrap.ClampThenScatterToNull
}

int count_above(const float* in, int n, float threshold, int* count) {  //@ CountAbove.SomeAbove CountAbove.NoneAbove
  count_above_kernel<<<blocks_for(n), kBlock>>>(in, n, threshold, count);  //@ CountAbove.SomeAbove CountAbove.NoneAbove
  return static_cast<int>(cudaGetLastError());  //@ CountAbove.SomeAbove CountAbove.NoneAbove
}

int window_sum(const float* in, float* out, int n, int radius) {  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  const int fault = window_fault();  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  window_sum_kernel<<<blocks_for(n), kBlock>>>(in, out, n, radius, fault);  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
  return static_cast<int>(cudaGetLastError());  //@ WindowSum.RadiusZeroCopies WindowSum.RadiusTwo WindowSum.WholeRow
}

int normalize(float* data, int n, float norm) {  //@ Normalize.ByFour Normalize.ZeroNormLaunchesNothing
  if (norm == 0.0f) {  //@ Normalize.ByFour Normalize.ZeroNormLaunchesNothing
    return static_cast<int>(cudaSuccess);  //@ Normalize.ZeroNormLaunchesNothing
  }
  normalize_kernel<<<blocks_for(n), kBlock>>>(data, n, norm);  //@ Normalize.ByFour
  return static_cast<int>(cudaGetLastError());  //@ Normalize.ByFour
}

int scatter(const float* in, const int* index, float* out, int n) {  //@ Scatter.Reverses DeviceTrap.ClampThenScatterToNull
  scatter_kernel<<<blocks_for(n), kBlock>>>(in, index, out, n);  //@ Scatter.Reverses DeviceTrap.ClampThenScatterToNull
  return static_cast<int>(cudaGetLastError());  //@ Scatter.Reverses DeviceTrap.ClampThenScatterToNull
}

}  // namespace gpu_check
