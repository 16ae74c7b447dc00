// The GPU operators on a small .cu file (parsed host-only by clang, checked the same way).
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

const char* const kKernels =
    "#include <cuda_runtime.h>\n"
    "\n"
    "__global__ void scale(float* x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] *= 2.0f;\n"
    "}\n"
    "\n"
    "__global__ void reduce(const float* in, float* out, int n) {\n"
    "  __shared__ float tile[256];\n"
    "  int t = threadIdx.x;\n"
    "  int g = blockIdx.x * 256 + t;\n"
    "  if (g >= n) return;\n"
    "  tile[t] = t < n ? in[g] : 0.0f;\n"
    "  __syncthreads();\n"
    "  if (t == 0) out[blockIdx.x] = tile[0];\n"
    "}\n"
    "\n"
    "int blocks_for(int n, int block) { return (n + block - 1) / block; }\n"
    "void launch(float* x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }\n";

TEST(GpuOperators, RemoveSyncthreads) {
  expect_mutants(Operator::remove_syncthreads, "k.cu", kKernels, {{14, "  __syncthreads();\n", ""}});
}

TEST(GpuOperators, RemoveBoundsCheckOnlyForComparisonGuards) {
  expect_mutants(Operator::remove_bounds_check, "k.cu", kKernels,
                 {{5, "if (i < n) ", ""}, {12, "  if (g >= n) return;\n", ""}, {13, "t < n ? in[g] : 0.0f", "in[g]"}});
}

TEST(GpuOperators, ThreadIndexOffByOne) {
  const std::string index = "blockIdx.x * blockDim.x + threadIdx.x";
  expect_mutants(Operator::thread_index_off_by_one, "k.cu", kKernels,
                 {{4, index, "(" + index + " + 1)"},
                  {4, index, "(" + index + " - 1)"},
                  {11, "blockIdx.x * 256 + t", "(blockIdx.x * 256 + t + 1)"},
                  {11, "blockIdx.x * 256 + t", "(blockIdx.x * 256 + t - 1)"}});
}

TEST(GpuOperators, CeilDivInCudaFiles) {
  expect_mutants(Operator::ceil_div, "k.cu", kKernels,
                 {{18, "(n + block - 1) / block", "n / block"}, {19, "(n + 255) / 256", "n / 256"}});
}

TEST(GpuOperators, CeilDivInHostCodeNeedsLaunchGeometryNames) {
  expect_mutants(Operator::ceil_div, "geometry.cpp",
                 "long pages(long items, long per_page) { return (items + per_page - 1) / per_page; }\n"
                 "long grid_size(long n, long b) { return (n + (b - 1)) / b; }\n"
                 "long tiles(long n, long tile) { return (n - 1) / tile + 1; }\n"
                 "long chunks(long a, long c, long block) { return (a + c + block - 1) / block; }\n",
                 {{2, "(n + (b - 1)) / b", "n / b"},
                  {3, "(n - 1) / tile + 1", "n / tile"},
                  {4, "(a + c + block - 1) / block", "(a + c) / block"}});
}

TEST(GpuOperators, BoundsChecksOutsideKernelsStay) {
  expect_mutants(Operator::remove_bounds_check, "host.cu",
                 "void host(float* x, int i, int n) {\n"
                 "  if (i < n) x[i] = 0;\n"
                 "}\n",
                 {});
}

}  // namespace
}  // namespace dlfl::mutate::testing
