// Host entry points of the GPU check's kernels (kernels.cu). Plain C++, so the tests and the
// benchmark need no CUDA headers to call them; the int results are cudaError_t values. All
// pointers are device pointers; launches go to the default stream and return at once.
#pragma once

namespace gpu_check {

// out[i] = in[i] clamped to [lo, hi].
int clamp(const float* in, float* out, int n, float lo, float hi);
// *count += the number of in[i] > threshold.
int count_above(const float* in, int n, float threshold, int* count);
// out[i] = sum of in[j] for |i - j| <= radius, j in [0, n). GPU_CHECK_FAULT=window_bound
// switches on the seeded GPU-only fault: the right end of the window reads in[n].
int window_sum(const float* in, float* out, int n, int radius);
// data[i] /= norm; launches nothing when norm is 0 (the data stays as it is).
int normalize(float* data, int n, float norm);
// out[index[i]] = in[i].
int scatter(const float* in, const int* index, float* out, int n);

}  // namespace gpu_check
