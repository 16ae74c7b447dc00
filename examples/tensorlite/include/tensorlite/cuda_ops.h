// Host entry points of the CUDA kernels in cuda/ (built with -DTENSORLITE_CUDA=ON).
// Plain C++ so that callers need no CUDA headers; the int results are cudaError_t values.
#pragma once

#include <cstdint>

namespace tensorlite::cuda {

// All pointers are device pointers; launches go to the default stream.
int add_f32(const float* a, const float* b, float* out, std::int64_t n);
int relu_f32(const float* x, float* out, std::int64_t n);
// Row-wise softmax of a [rows, cols] row-major matrix.
int softmax_rows_f32(const float* x, float* out, std::int64_t rows, std::int64_t cols);
// C[M, N] = A[M, K] * B[K, N], row-major.
int matmul_f32(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n,
               std::int64_t k);

}  // namespace tensorlite::cuda
