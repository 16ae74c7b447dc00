// Tests for batched, tiled matmul and its gradient (matmul.h).
#include <ostream>
#include <string>

#include "test_util.h"

namespace {

namespace tl = tensorlite;
using tl::DType;
using tl::Shape;
using tltest::Tensor;
using tltest::kGradAtol;
using tltest::kGradRtol;
using tltest::numerical_grad;
using tltest::random_tensor;
using tltest::tensor_close;

// Naive triple loop over 2-D operands.
std::vector<double> reference_matmul(const Tensor& a, const Tensor& b) {
  const std::int64_t m = a.size(0);
  const std::int64_t k = a.size(1);
  const std::int64_t n = b.size(1);
  std::vector<double> c(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t p = 0; p < k; ++p) {
        c[static_cast<std::size_t>(i * n + j)] += a.at({i, p}) * b.at({p, j});
      }
    }
  }
  return c;
}

struct GemmSize {
  std::int64_t m;
  std::int64_t k;
  std::int64_t n;
};

std::ostream& operator<<(std::ostream& os, const GemmSize& s) {
  return os << s.m << "x" << s.k << "x" << s.n;
}

class MatmulSizes : public ::testing::TestWithParam<GemmSize> {};

TEST_P(MatmulSizes, MatchesNaiveReference) {
  const auto [m, k, n] = GetParam();
  const Tensor a = random_tensor({m, k}, 31);
  const Tensor b = random_tensor({k, n}, 32);
  EXPECT_TRUE(tensor_close(tl::matmul(a, b), {m, n}, reference_matmul(a, b), 1e-12, 1e-12));
}

TEST_P(MatmulSizes, BackwardMatchesFiniteDifferences) {
  const auto [m, k, n] = GetParam();
  const Tensor a = random_tensor({m, k}, 33);
  const Tensor b = random_tensor({k, n}, 34);
  const Tensor upstream = random_tensor({m, n}, 35);
  const tl::MatmulGrads grads = tl::matmul_backward(upstream, a, b);
  EXPECT_TRUE(tensor_close(grads.grad_a,
                           numerical_grad([&](const Tensor& x) { return tl::matmul(x, b); }, a,
                                          upstream),
                           kGradAtol, kGradRtol));
  EXPECT_TRUE(tensor_close(grads.grad_b,
                           numerical_grad([&](const Tensor& y) { return tl::matmul(a, y); }, b,
                                          upstream),
                           kGradAtol, kGradRtol));
}

// Sizes straddle the 16-wide tile: exact multiples, ragged edges, and smaller than a tile.
INSTANTIATE_TEST_SUITE_P(
    Tiles, MatmulSizes,
    ::testing::Values(GemmSize{1, 1, 1}, GemmSize{2, 3, 4}, GemmSize{5, 7, 3}, GemmSize{16, 16, 16},
                      GemmSize{16, 32, 16}, GemmSize{32, 16, 16}, GemmSize{17, 5, 16},
                      GemmSize{16, 20, 33}, GemmSize{31, 17, 18}),
    [](const ::testing::TestParamInfo<GemmSize>& info) {
      return std::to_string(info.param.m) + "x" + std::to_string(info.param.k) + "x" +
             std::to_string(info.param.n);
    });

TEST(Matmul, HandComputed) {
  const Tensor a = Tensor::from_vector({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float64);
  const Tensor b = Tensor::from_vector({7, 8, 9, 10, 11, 12}, {3, 2}, DType::Float64);
  EXPECT_TRUE(tensor_close(tl::matmul(a, b), {2, 2}, {58, 64, 139, 154}));
}

TEST(Matmul, IdentityLeavesMatrixUnchanged) {
  std::vector<double> eye(16 * 16, 0.0);
  for (std::size_t i = 0; i < 16; ++i) {
    eye[i * 16 + i] = 1.0;
  }
  const Tensor a = random_tensor({16, 16}, 36);
  EXPECT_TRUE(tensor_close(tl::matmul(a, Tensor::from_vector(eye, {16, 16}, DType::Float64)), a));
}

TEST(Matmul, EmptyInnerDimensionGivesZeros) {
  const Tensor c = tl::matmul(Tensor::zeros({2, 0}), Tensor::zeros({0, 3}));
  EXPECT_EQ(c.shape(), (Shape{2, 3}));
  EXPECT_EQ(c.to_vector(), std::vector<double>(6, 0.0));
}

TEST(Matmul, TransposedOperand) {
  const Tensor a = random_tensor({4, 3}, 37);
  const Tensor b = random_tensor({4, 2}, 38);
  const Tensor at = a.transpose(0, 1);
  EXPECT_TRUE(tensor_close(tl::matmul(at, b), {3, 2}, reference_matmul(at.contiguous(), b),
                           1e-12, 1e-12));
}

TEST(Matmul, BatchedMatchesPerBatchProducts) {
  const Tensor a = random_tensor({2, 3, 4}, 39);
  const Tensor b = random_tensor({2, 4, 5}, 40);
  const Tensor c = tl::matmul(a, b);
  ASSERT_EQ(c.shape(), (Shape{2, 3, 5}));
  for (std::int64_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(tensor_close(c.select(0, i), {3, 5},
                             reference_matmul(a.select(0, i), b.select(0, i)), 1e-12, 1e-12));
  }
}

TEST(Matmul, BatchDimensionsBroadcast) {
  const Tensor a = random_tensor({2, 1, 3, 4}, 41);
  const Tensor b = random_tensor({5, 4, 2}, 42);
  const Tensor c = tl::matmul(a, b);
  ASSERT_EQ(c.shape(), (Shape{2, 5, 3, 2}));
  EXPECT_TRUE(tensor_close(c.select(0, 1).select(0, 3), {3, 2},
                           reference_matmul(a.select(0, 1).select(0, 0), b.select(0, 3)), 1e-12,
                           1e-12));
}

TEST(Matmul, BroadcastBatchBackwardSumsOverBatch) {
  const Tensor a = random_tensor({3, 2, 3}, 43);
  const Tensor b = random_tensor({3, 4}, 44);  // shared across the batch
  const Tensor upstream = random_tensor({3, 2, 4}, 45);
  const tl::MatmulGrads grads = tl::matmul_backward(upstream, a, b);
  EXPECT_EQ(grads.grad_b.shape(), (Shape{3, 4}));
  EXPECT_TRUE(tensor_close(grads.grad_b,
                           numerical_grad([&](const Tensor& y) { return tl::matmul(a, y); }, b,
                                          upstream),
                           kGradAtol, kGradRtol));
  EXPECT_TRUE(tensor_close(grads.grad_a,
                           numerical_grad([&](const Tensor& x) { return tl::matmul(x, b); }, a,
                                          upstream),
                           kGradAtol, kGradRtol));
}

TEST(MatmulErrors, InnerDimensionMismatchThrows) {
  EXPECT_THROW(tl::matmul(Tensor::zeros({2, 3}), Tensor::zeros({4, 2})), tl::ShapeError);
}

TEST(MatmulErrors, VectorsAreRejected) {
  EXPECT_THROW(tl::matmul(Tensor::zeros({3}), Tensor::zeros({3, 2})), tl::ShapeError);
}

TEST(MatmulErrors, IncompatibleBatchesThrow) {
  EXPECT_THROW(tl::matmul(Tensor::zeros({2, 3, 4}), Tensor::zeros({3, 4, 5})), tl::ShapeError);
}

TEST(MatmulDType, PromotesMixedInputs) {
  const Tensor c = tl::matmul(Tensor::ones({2, 2}, DType::Float32), Tensor::ones({2, 2}, DType::Float64));
  EXPECT_EQ(c.dtype(), DType::Float64);
  EXPECT_EQ(c.to_vector(), std::vector<double>(4, 2.0));
}

TEST(MatmulDType, IntegerMatmulIsExact) {
  const Tensor a = Tensor::from_vector({1, 2, 3, 4}, {2, 2}, DType::Int64);
  EXPECT_EQ(tl::matmul(a, a).to_vector(), (std::vector<double>{7, 10, 15, 22}));
}

TEST(MatmulDType, Float16AccumulatesInFloat) {
  // A float16 running sum of ones stalls at 2048 (its spacing there is 2); the kernel
  // accumulates in float like the GPU and only rounds the final 4096, which is exact.
  const Tensor a = Tensor::ones({1, 4096}, DType::Float16);
  const Tensor b = Tensor::ones({4096, 1}, DType::Float16);
  EXPECT_EQ(tl::matmul(a, b).item(), 4096.0);
}

}  // namespace
