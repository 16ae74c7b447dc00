// CUDA versions of the example's operators over raw device pointers (float and double).
// Debian's python3-torch is CPU-only, so extension.cpp does not bind them; they are
// compiled with nvcc (build.py --cuda-check, the CTest torch_ext.cuda_compile) to keep them
// building, and a CUDA build of torch would call them for cuda tensors.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace torch_ext::cuda {

// One block per row; each returns the launch error (cudaSuccess when queued).
template <typename T>
cudaError_t softmax_forward(const T* x, T* y, std::int64_t rows, std::int64_t cols, T scale, cudaStream_t stream);
template <typename T>
cudaError_t rms_norm_forward(const T* x, const T* weight, T* y, T* rstd, std::int64_t rows, std::int64_t cols,
                             double eps, cudaStream_t stream);

}  // namespace torch_ext::cuda
