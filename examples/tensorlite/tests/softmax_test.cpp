// Tests for softmax / log-softmax and their gradients (softmax.h).
#include <cmath>
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

std::vector<double> reference_softmax(const std::vector<double>& row) {
  double max = row[0];
  for (const double v : row) {
    max = std::max(max, v);
  }
  double total = 0.0;
  std::vector<double> out(row.size());
  for (std::size_t i = 0; i < row.size(); ++i) {
    out[i] = std::exp(row[i] - max);
    total += out[i];
  }
  for (double& v : out) {
    v /= total;
  }
  return out;
}

TEST(Softmax, HandComputedRow) {
  const Tensor y = tl::softmax(Tensor::from_vector({1, 2, 3}, {3}, DType::Float64));
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  EXPECT_TRUE(tensor_close(y, {3}, {std::exp(1.0) / z, std::exp(2.0) / z, std::exp(3.0) / z},
                           1e-12, 1e-12));
}

TEST(Softmax, UniformLogitsGiveUniformProbabilities) {
  EXPECT_TRUE(tensor_close(tl::softmax(Tensor::zeros({4}, DType::Float64)), {4},
                           {0.25, 0.25, 0.25, 0.25}));
}

TEST(Softmax, InvariantToAConstantShift) {
  const Tensor x = random_tensor({3, 5}, 61);
  EXPECT_TRUE(tensor_close(tl::softmax(tl::add_scalar(x, 25.0)), tl::softmax(x), 1e-12, 1e-9));
}

TEST(Softmax, LargeLogitsDoNotOverflow) {
  const Tensor y = tl::softmax(Tensor::from_vector({1000, 1001, 1002}, {3}, DType::Float64));
  EXPECT_TRUE(tensor_close(y, {3}, reference_softmax({0, 1, 2}), 1e-12, 1e-12));
}

TEST(Softmax, VeryNegativeLogitsDoNotUnderflowToNaN) {
  const Tensor y = tl::softmax(Tensor::from_vector({-1000, -1000}, {2}, DType::Float64));
  EXPECT_TRUE(tensor_close(y, {2}, {0.5, 0.5}));
}

TEST(Softmax, Float32LogitsBeyondExpRange) {
  // exp(100) overflows float32 (max ~3.4e38), so only the shifted form is finite.
  const Tensor y = tl::softmax(Tensor::from_vector({100, 100}, {1, 2}, DType::Float32));
  EXPECT_TRUE(tensor_close(y, {1, 2}, {0.5, 0.5}));
}

class SoftmaxAxis : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(SoftmaxAxis, SlicesAlongAxisSumToOne) {
  const std::int64_t axis = GetParam();
  const Tensor y = tl::softmax(random_tensor({2, 3, 4}, 62, DType::Float64, -3, 3), axis);
  const Tensor sums = tl::sum(y, axis);
  EXPECT_TRUE(tensor_close(sums, sums.shape(), std::vector<double>(static_cast<std::size_t>(sums.numel()), 1.0),
                           1e-12, 1e-12));
}

TEST_P(SoftmaxAxis, BackwardMatchesFiniteDifferences) {
  const std::int64_t axis = GetParam();
  const Tensor x = random_tensor({2, 3, 4}, 63);
  const Tensor upstream = random_tensor({2, 3, 4}, 64);
  const Tensor analytic = tl::softmax_backward(upstream, tl::softmax(x, axis), axis);
  const Tensor numeric =
      numerical_grad([&](const Tensor& v) { return tl::softmax(v, axis); }, x, upstream);
  EXPECT_TRUE(tensor_close(analytic, numeric, kGradAtol, kGradRtol));
}

TEST_P(SoftmaxAxis, LogSoftmaxBackwardMatchesFiniteDifferences) {
  const std::int64_t axis = GetParam();
  const Tensor x = random_tensor({2, 3, 4}, 65);
  const Tensor upstream = random_tensor({2, 3, 4}, 66);
  const Tensor analytic = tl::log_softmax_backward(upstream, tl::log_softmax(x, axis), axis);
  const Tensor numeric =
      numerical_grad([&](const Tensor& v) { return tl::log_softmax(v, axis); }, x, upstream);
  EXPECT_TRUE(tensor_close(analytic, numeric, kGradAtol, kGradRtol));
}

INSTANTIATE_TEST_SUITE_P(Axes, SoftmaxAxis, ::testing::Values(0, 1, 2, -1),
                         [](const ::testing::TestParamInfo<std::int64_t>& info) {
                           return info.param < 0 ? "minus" + std::to_string(-info.param)
                                                 : "axis" + std::to_string(info.param);
                         });

TEST(Softmax, AxisZeroOfMatrix) {
  const Tensor x = Tensor::from_vector({0, 1, 0, 1}, {2, 2}, DType::Float64);
  const Tensor y = tl::softmax(x, 0);
  EXPECT_TRUE(tensor_close(y, {2, 2}, {0.5, 0.5, 0.5, 0.5}));
}

TEST(Softmax, Float16InputComputesInFloat) {
  const Tensor y = tl::softmax(Tensor::from_vector({0, 0, 0, 0}, {4}, DType::Float16));
  EXPECT_EQ(y.dtype(), DType::Float16);
  EXPECT_EQ(y.to_vector(), (std::vector<double>{0.25, 0.25, 0.25, 0.25}));
}

TEST(Softmax, IntegerInputBecomesFloat32) {
  const Tensor y = tl::softmax(Tensor::from_vector({1, 1}, {2}, DType::Int32));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_TRUE(tensor_close(y, {2}, {0.5, 0.5}));
}

TEST(Softmax, EmptyBatchGivesEmptyOutput) {
  const Tensor y = tl::softmax(Tensor::zeros({0, 3}, DType::Float64));
  EXPECT_EQ(y.shape(), (Shape{0, 3}));
  EXPECT_EQ(y.dtype(), DType::Float64);
  EXPECT_EQ(tl::log_softmax(Tensor::zeros({0, 3}, DType::Float64), 1).shape(), (Shape{0, 3}));
}

TEST(LogSoftmax, EqualsLogOfSoftmaxForModerateLogits) {
  const Tensor x = random_tensor({3, 4}, 67, DType::Float64, -4, 4);
  EXPECT_TRUE(tensor_close(tl::log_softmax(x), tl::log(tl::softmax(x)), 1e-12, 1e-10));
}

TEST(LogSoftmax, StaysFiniteWhereSoftmaxUnderflows) {
  const Tensor y = tl::log_softmax(Tensor::from_vector({0, -800}, {2}, DType::Float64));
  EXPECT_TRUE(tensor_close(y, {2}, {0.0, -800.0}, 1e-9, 1e-12));
}

TEST(SoftmaxErrors, BackwardShapeMismatchThrows) {
  EXPECT_THROW(tl::softmax_backward(Tensor::ones({2, 3}), Tensor::ones({3, 2})), tl::ShapeError);
  EXPECT_THROW(tl::log_softmax_backward(Tensor::ones({2}), Tensor::ones({3})), tl::ShapeError);
}

TEST(SoftmaxErrors, AxisOutOfRangeThrows) {
  EXPECT_THROW(tl::softmax(Tensor::ones({2, 3}), 2), tl::ArgumentError);
}

}  // namespace
