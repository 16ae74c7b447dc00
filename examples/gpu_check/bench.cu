// Kernel time of the GPU check's kernels, timed with cudaEvents: the same driver is linked
// once with the plain kernels and once with the instrumented ones, and run.sh divides the
// two. Prints `kernel NAME US_PER_LAUNCH` lines; exit 1 when a CUDA call fails.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels.h"

namespace {

constexpr int kN = 1 << 24;
constexpr int kLaunches = 50;

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "bench: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

// Microseconds per launch of `launch`, after one warm-up launch.
template <typename Launch>
double time_us(Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch();
  cudaDeviceSynchronize();
  cudaEventRecord(start);
  for (int k = 0; k < kLaunches; ++k) launch();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return static_cast<double>(ms) * 1000.0 / kLaunches;
}

}  // namespace

int main() {
  std::vector<float> host(kN);
  for (int i = 0; i < kN; ++i) host[static_cast<std::size_t>(i)] = static_cast<float>(i % 1000) - 100.0f;
  std::vector<int> index(kN);
  for (int i = 0; i < kN; ++i) index[static_cast<std::size_t>(i)] = kN - 1 - i;
  float *in = nullptr, *out = nullptr;
  int *count = nullptr, *d_index = nullptr;
  if (!ok(cudaMalloc(&in, (kN + 4) * sizeof(float)), "cudaMalloc") || !ok(cudaMalloc(&out, kN * sizeof(float)), "cudaMalloc") ||
      !ok(cudaMalloc(&count, sizeof(int)), "cudaMalloc") || !ok(cudaMalloc(&d_index, kN * sizeof(int)), "cudaMalloc"))
    return 1;
  cudaMemcpy(in, host.data(), kN * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_index, index.data(), kN * sizeof(int), cudaMemcpyHostToDevice);
  struct Row {
    const char* name;
    double us;
  };
  const Row rows[] = {
      {"clamp", time_us([&] { gpu_check::clamp(in, out, kN, 0.0f, 500.0f); })},
      {"count_above", time_us([&] { gpu_check::count_above(in, kN, 850.0f, count); })},
      {"window_sum", time_us([&] { gpu_check::window_sum(in, out, kN, 4); })},
      {"normalize", time_us([&] { gpu_check::normalize(out, kN, 2.0f); })},
      {"scatter", time_us([&] { gpu_check::scatter(in, d_index, out, kN); })},
  };
  if (!ok(cudaDeviceSynchronize(), "kernels")) return 1;
  for (const Row& r : rows) std::printf("kernel %s %.3f\n", r.name, r.us);
  return 0;
}
