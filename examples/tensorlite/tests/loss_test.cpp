// Tests for cross-entropy and MSE losses and their gradients (loss.h).
#include <cmath>
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

Tensor ids(const std::vector<double>& values, const Shape& shape, DType dtype = DType::Int64) {
  return Tensor::from_vector(values, shape, dtype);
}

TEST(CrossEntropy, UniformLogitsGiveLogOfClassCount) {
  const Tensor loss = tl::cross_entropy(Tensor::zeros({1, 4}, DType::Float64), ids({2}, {1}));
  EXPECT_EQ(loss.dim(), 0);
  EXPECT_NEAR(loss.item(), std::log(4.0), 1e-12);
}

TEST(CrossEntropy, HandComputedBatchMean) {
  const Tensor logits = Tensor::from_vector({0, 1, 2, 2, 0, 0}, {2, 3}, DType::Float64);
  const double z0 = 1 + std::exp(1.0) + std::exp(2.0);
  const double z1 = std::exp(2.0) + 2.0;
  const double expected = (-(2.0 - std::log(z0)) - (0.0 - std::log(z1))) / 2.0;
  EXPECT_NEAR(tl::cross_entropy(logits, ids({2, 1}, {2})).item(), expected, 1e-12);
}

TEST(CrossEntropy, AcceptsInt32Targets) {
  const Tensor logits = random_tensor({3, 4}, 81);
  EXPECT_DOUBLE_EQ(tl::cross_entropy(logits, ids({0, 3, 1}, {3}, DType::Int32)).item(),
                   tl::cross_entropy(logits, ids({0, 3, 1}, {3})).item());
}

TEST(CrossEntropy, LargeLogitsStayFinite) {
  const Tensor logits = Tensor::from_vector({1000, 0, 0, 1000}, {2, 2}, DType::Float64);
  EXPECT_NEAR(tl::cross_entropy(logits, ids({0, 0}, {2})).item(), 500.0, 1e-9);
}

TEST(CrossEntropy, SequenceLogitsEqualFlattenedPredictions) {
  // [N, C, L] logits: class axis 1. Moving it last and flattening gives [N L, C].
  const Tensor logits = random_tensor({2, 3, 4}, 82);
  const Tensor targets = ids({0, 1, 2, 0, 2, 2, 1, 0}, {2, 4});
  const Tensor flat = logits.permute({0, 2, 1}).reshape({8, 3});
  EXPECT_NEAR(tl::cross_entropy(logits, targets).item(),
              tl::cross_entropy(flat, targets.reshape({8})).item(), 1e-12);
}

struct CeCase {
  const char* name;
  Shape logits;
  Shape targets;
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const CeCase& c) { return os << c.name; }

class CrossEntropyGrad : public ::testing::TestWithParam<CeCase> {};

TEST_P(CrossEntropyGrad, MatchesFiniteDifferences) {
  const CeCase& c = GetParam();
  const Tensor logits = random_tensor(c.logits, 83, DType::Float64, -2, 2);
  std::vector<double> classes = tltest::random_values(
      static_cast<std::size_t>(tl::shape_numel(c.targets)), 84, 0, static_cast<double>(c.logits[1]));
  for (double& v : classes) {
    v = std::floor(v);
  }
  const Tensor targets = ids(classes, c.targets);
  const Tensor upstream = Tensor::scalar(0.7, DType::Float64);
  const Tensor analytic = tl::cross_entropy_backward(upstream, logits, targets);
  const Tensor numeric = numerical_grad(
      [&](const Tensor& v) { return tl::cross_entropy(v, targets); }, logits, upstream);
  EXPECT_TRUE(tensor_close(analytic, numeric, kGradAtol, kGradRtol));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, CrossEntropyGrad,
    ::testing::Values(CeCase{"single_example", {1, 5}, {1}}, CeCase{"batch", {4, 3}, {4}},
                      CeCase{"sequence", {2, 3, 4}, {2, 4}},
                      CeCase{"single_position_sequence", {1, 4, 1}, {1, 1}}),
    [](const ::testing::TestParamInfo<CeCase>& info) { return std::string(info.param.name); });

TEST(CrossEntropyBackward, SingleExampleIsSoftmaxMinusOneHot) {
  const Tensor grad = tl::cross_entropy_backward(Tensor::scalar(1.0, DType::Float64),
                                                 Tensor::zeros({1, 2}, DType::Float64),
                                                 ids({0}, {1}));
  EXPECT_TRUE(tensor_close(grad, {1, 2}, {-0.5, 0.5}));
}

TEST(CrossEntropyBackward, EachRowSumsToZero) {
  const Tensor grad = tl::cross_entropy_backward(Tensor::scalar(1.0, DType::Float64),
                                                 random_tensor({3, 4}, 85), ids({1, 0, 3}, {3}));
  const std::vector<double> rows = tl::sum(grad, 1).to_vector();
  for (const double r : rows) {
    EXPECT_NEAR(r, 0.0, 1e-12);
  }
}

TEST(CrossEntropyBackward, ConfidentCorrectPredictionHasNoGradient) {
  const Tensor grad = tl::cross_entropy_backward(
      Tensor::scalar(1.0, DType::Float64),
      Tensor::from_vector({900, 0, 0, 900}, {2, 2}, DType::Float64), ids({0, 1}, {2}));
  EXPECT_TRUE(tensor_close(grad, {2, 2}, {0, 0, 0, 0}, 1e-12, 0));
}

TEST(CrossEntropyErrors, ClassIdOutOfRangeThrows) {
  EXPECT_THROW(tl::cross_entropy(Tensor::zeros({2, 3}), ids({0, 3}, {2})), tl::ArgumentError);
  EXPECT_THROW(tl::cross_entropy(Tensor::zeros({2, 3}), ids({-1, 0}, {2})), tl::ArgumentError);
}

TEST(CrossEntropyErrors, TargetShapeAndDTypeAreChecked) {
  EXPECT_THROW(tl::cross_entropy(Tensor::zeros({2, 3}), ids({0, 1, 2}, {3})), tl::ShapeError);
  EXPECT_THROW(tl::cross_entropy(Tensor::zeros({2, 3}), Tensor::zeros({2})), tl::DTypeError);
  EXPECT_THROW(tl::cross_entropy(Tensor::zeros({2}), ids({0, 1}, {2})), tl::ShapeError);
}

TEST(CrossEntropyErrors, EmptyBatchThrows) {
  EXPECT_THROW(tl::cross_entropy(Tensor::zeros({0, 3}), ids({}, {0})), tl::ArgumentError);
}

TEST(CrossEntropyBackwardErrors, LossGradientMustBeAScalar) {
  EXPECT_THROW(tl::cross_entropy_backward(Tensor::ones({2}, DType::Float64), Tensor::zeros({2, 3}),
                                          ids({0, 1}, {2})),
               tl::ShapeError);
}

TEST(CrossEntropyBackwardErrors, TargetsAreCheckedLikeTheForward) {
  const Tensor one = Tensor::scalar(1.0, DType::Float64);
  EXPECT_THROW(tl::cross_entropy_backward(one, Tensor::zeros({2, 3}), ids({0, 3}, {2})),
               tl::ArgumentError);
  EXPECT_THROW(tl::cross_entropy_backward(one, Tensor::zeros({2, 3}), ids({0, 1, 2}, {3})),
               tl::ShapeError);
  EXPECT_THROW(tl::cross_entropy_backward(one, Tensor::zeros({2, 3}), Tensor::zeros({2})),
               tl::DTypeError);
}

TEST(MseLoss, HandComputed) {
  const Tensor p = Tensor::from_vector({1, 2, 3}, {3}, DType::Float64);
  const Tensor t = Tensor::from_vector({1, 0, 5}, {3}, DType::Float64);
  EXPECT_NEAR(tl::mse_loss(p, t).item(), 8.0 / 3.0, 1e-12);
}

TEST(MseLoss, BackwardMatchesFiniteDifferences) {
  const Tensor p = random_tensor({2, 3}, 86);
  const Tensor t = random_tensor({2, 3}, 87);
  const Tensor upstream = Tensor::scalar(1.3, DType::Float64);
  const Tensor analytic = tl::mse_loss_backward(upstream, p, t);
  const Tensor numeric =
      numerical_grad([&](const Tensor& v) { return tl::mse_loss(v, t); }, p, upstream);
  EXPECT_TRUE(tensor_close(analytic, numeric, kGradAtol, kGradRtol));
}

TEST(MseLoss, ShapeMismatchThrows) {
  EXPECT_THROW(tl::mse_loss(Tensor::zeros({3}), Tensor::zeros({3, 1})), tl::ShapeError);
}

}  // namespace
