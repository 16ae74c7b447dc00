// The tensor (strides, dimensions, broadcasting, dtypes) and api (reduction axis) operators.
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

const char* const kTensor =
    "#include <vector>\n"
    "using Shape = std::vector<long>;\n"
    "\n"
    "long at(const long* data, long i, long j, long stride0, long stride1) {\n"
    "  return data[i * stride0 + j * stride1];\n"
    "}\n"
    "long at3(const long* d, const long* strides, long i, long j, long k) {\n"
    "  return d[i * strides[0] + j * strides[1] + k * strides[2]];\n"
    "}\n"
    "double row_major(const double* a, long r, long c, long cols) {\n"
    "  return a[r * cols + c];\n"
    "}\n"
    "long dims(const Shape& shape) { return shape[0] * shape[1]; }\n"
    "struct T { long size(long d) const { return d; } };\n"
    "long last(const T& t) { return t.size(-1) + t.size(0); }\n"
    "Shape broadcast_shapes(const Shape& a, const Shape& b) {\n"
    "  const unsigned long rank = a.size() > b.size() ? a.size() : b.size();\n"
    "  const unsigned long lead_a = rank - a.size();\n"
    "  Shape out(rank);\n"
    "  for (unsigned long i = 0; i < rank; ++i) {\n"
    "    const long da = i < lead_a ? 1 : a[i - lead_a];\n"
    "    const long db = b[lead_a + i];\n"
    "    out[i] = da == 1 ? db : da;\n"
    "  }\n"
    "  return out;\n"
    "}\n"
    "double sum(const double* x, long n, int axis);\n"
    "double mean(const double* x, long n, int dim, bool keepdim = false);\n"
    "double use(const double* x, long n, int ax) {\n"
    "  return sum(x, n, 1) + mean(x, n, -1) + sum(x, n, ax);\n"
    "}\n"
    "double narrow(const double* x, long n) {\n"
    "  double acc = 0.0;\n"
    "  float scale = 0.5f;\n"
    "  double a = 1.0, b = 2.0;\n"
    "  double c{3.0};\n"
    "  auto d = 4.0;\n"
    "  for (long i = 0; i < n; ++i) acc += x[i] * scale;\n"
    "  return acc + a + b + c + d;\n"
    "}\n";

TEST(TensorOperators, SwapStridesOfAdjacentTerms) {
  expect_mutants(Operator::swap_strides, "t.cpp", kTensor,
                 {{5, "i * stride0 + j * stride1", "i * stride1 + j * stride0"},
                  {8, "i * strides[0] + j * strides[1]", "i * strides[1] + j * strides[0]"},
                  {8, "j * strides[1] + k * strides[2]", "j * strides[2] + k * strides[1]"}});
}

TEST(TensorOperators, TransposeRowMajorIndex) {
  expect_mutants(Operator::transpose_index, "t.cpp", kTensor, {{11, "r * cols + c", "c * cols + r"}});
}

TEST(TensorOperators, SwapDimensions) {
  expect_mutants(
      Operator::swap_dims, "t.cpp", kTensor,
      {{8, "0", "1"}, {8, "1", "0"}, {8, "2", "3"}, {13, "0", "1"}, {13, "1", "0"}, {15, "-1", "-2"}, {15, "0", "1"}});
}

TEST(TensorOperators, BroadcastRuleOnlyInBroadcastFunctions) {
  expect_mutants(Operator::broadcast_rule, "t.cpp", kTensor,
                 {{21, "i - lead_a", "i"}, {22, "lead_a + i", "i"}, {23, "==", "!="}});
}

TEST(TensorOperators, ReductionAxisArguments) {
  expect_mutants(
      Operator::reduction_axis, "t.cpp", kTensor,
      {{30, "1", "0"}, {30, "1", "2"}, {30, "-1", "-2"}, {30, "-1", "0"}, {30, "ax", "ax + 1"}, {30, "ax", "ax - 1"}});
}

TEST(TensorOperators, DtypeNarrowingOfKeywordTypedLocals) {
  expect_mutants(Operator::dtype_narrowing, "t.cpp", kTensor,
                 {{33, "double", "float"}, {33, "double", "int"}, {34, "float", "int"}});
}

TEST(TensorOperators, DtypeNarrowingToHalfInDeviceCode) {
  expect_mutants(Operator::dtype_narrowing, "h.cu",
                 "#include <cuda_runtime.h>\n"
                 "struct __half { __host__ __device__ __half(float) {} };\n"
                 "__global__ void k(float* x) {\n"
                 "  float v = x[threadIdx.x];\n"
                 "  (void)v;\n"
                 "}\n"
                 "float host(float y) {\n"
                 "  float w = y;\n"
                 "  return w;\n"
                 "}\n",
                 {{4, "float", "__half"}, {4, "float", "int"}, {8, "float", "int"}});
}

}  // namespace
}  // namespace dlfl::mutate::testing
