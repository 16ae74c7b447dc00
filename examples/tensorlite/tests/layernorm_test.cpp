// Tests for layer normalization and its gradients (layernorm.h).
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

TEST(LayerNorm, HandComputedWithLargeEpsilon) {
  // Row [1, 3]: mean 2, biased variance 1, so y = (x - 2) / sqrt(1 + eps).
  const Tensor x = Tensor::from_vector({1, 3}, {1, 2}, DType::Float64);
  const double scale = 1.0 / std::sqrt(1.5);
  EXPECT_TRUE(tensor_close(tl::layer_norm(x, Tensor(), Tensor(), 0.5).output, {1, 2},
                           {-scale, scale}, 1e-12, 1e-12));
}

TEST(LayerNorm, SavedStatisticsMatchDefinition) {
  const Tensor x = Tensor::from_vector({1, 2, 3, 4, -2, 0, 2, 4}, {2, 4}, DType::Float64);
  const tl::LayerNormResult r = tl::layer_norm(x, Tensor(), Tensor());
  EXPECT_TRUE(tensor_close(r.mean, {2}, {2.5, 1.0}, 1e-12, 1e-12));
  // Biased variances 1.25 and 5; eps = 1e-5 under the root.
  EXPECT_TRUE(tensor_close(r.rstd, {2},
                           {1.0 / std::sqrt(1.25 + tl::kLayerNormEps),
                            1.0 / std::sqrt(5.0 + tl::kLayerNormEps)},
                           1e-12, 1e-12));
}

TEST(LayerNorm, RowsHaveZeroMeanAndUnitVariance) {
  const Tensor x = random_tensor({4, 8}, 71, DType::Float64, -5, 5);
  const Tensor y = tl::layer_norm(x, Tensor(), Tensor()).output;
  const Tensor means = tl::mean(y, 1);
  const Tensor vars = tl::mean(tl::mul(y, y), 1);
  EXPECT_TRUE(tensor_close(means, {4}, std::vector<double>(4, 0.0), 1e-9, 0));
  EXPECT_TRUE(tensor_close(vars, {4}, std::vector<double>(4, 1.0), 1e-3, 0));
}

TEST(LayerNorm, ConstantRowGivesBeta) {
  const Tensor x = Tensor::full({2, 3}, 7.0, DType::Float64);
  const Tensor beta = Tensor::from_vector({1, 2, 3}, {3}, DType::Float64);
  const Tensor y = tl::layer_norm(x, Tensor::ones({3}, DType::Float64), beta).output;
  EXPECT_TRUE(tensor_close(y, {2, 3}, {1, 2, 3, 1, 2, 3}));
}

TEST(LayerNorm, AffineParametersScaleAndShift) {
  const Tensor x = random_tensor({3, 4}, 72);
  const Tensor gamma = Tensor::from_vector({2, 2, 2, 2}, {4}, DType::Float64);
  const Tensor beta = Tensor::full({4}, -1.0, DType::Float64);
  const Tensor plain = tl::layer_norm(x, Tensor(), Tensor()).output;
  const Tensor affine = tl::layer_norm(x, gamma, beta).output;
  EXPECT_TRUE(tensor_close(affine, tl::add_scalar(tl::mul_scalar(plain, 2.0), -1.0), 1e-12, 1e-12));
}

TEST(LayerNorm, Float32InputKeepsDType) {
  const tl::LayerNormResult r = tl::layer_norm(random_tensor({2, 5}, 73, DType::Float32),
                                               Tensor(), Tensor());
  EXPECT_EQ(r.output.dtype(), DType::Float32);
  EXPECT_EQ(r.rstd.dtype(), DType::Float32);
}

struct LayerNormCase {
  const char* name;
  Shape shape;
  bool affine;
  double eps;
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const LayerNormCase& c) { return os << c.name; }

class LayerNormGrad : public ::testing::TestWithParam<LayerNormCase> {
 protected:
  Tensor gamma() const {
    const LayerNormCase& c = GetParam();
    return c.affine ? random_tensor({c.shape.back()}, 74, DType::Float64, 0.5, 1.5) : Tensor();
  }
  Tensor beta() const {
    const LayerNormCase& c = GetParam();
    return c.affine ? random_tensor({c.shape.back()}, 75) : Tensor();
  }
};

TEST_P(LayerNormGrad, InputGradientMatchesFiniteDifferences) {
  const LayerNormCase& c = GetParam();
  const Tensor x = random_tensor(c.shape, 76, DType::Float64, -2, 2);
  const Tensor upstream = random_tensor(c.shape, 77);
  const Tensor g = gamma();
  const Tensor b = beta();
  const tl::LayerNormResult saved = tl::layer_norm(x, g, b, c.eps);
  const tl::LayerNormGrads grads = tl::layer_norm_backward(upstream, x, g, b, saved);
  const Tensor numeric = numerical_grad(
      [&](const Tensor& v) { return tl::layer_norm(v, g, b, c.eps).output; }, x, upstream);
  EXPECT_TRUE(tensor_close(grads.grad_input, numeric, kGradAtol, kGradRtol));
}

TEST_P(LayerNormGrad, AffineGradientsMatchFiniteDifferences) {
  const LayerNormCase& c = GetParam();
  const Tensor x = random_tensor(c.shape, 78, DType::Float64, -2, 2);
  const Tensor upstream = random_tensor(c.shape, 79);
  const Tensor g = gamma();
  const Tensor b = beta();
  const tl::LayerNormGrads grads =
      tl::layer_norm_backward(upstream, x, g, b, tl::layer_norm(x, g, b, c.eps));
  if (!c.affine) {
    EXPECT_FALSE(grads.grad_gamma.defined());
    EXPECT_FALSE(grads.grad_beta.defined());
    return;
  }
  EXPECT_TRUE(tensor_close(
      grads.grad_gamma,
      numerical_grad([&](const Tensor& v) { return tl::layer_norm(x, v, b, c.eps).output; }, g,
                     upstream),
      kGradAtol, kGradRtol));
  EXPECT_TRUE(tensor_close(
      grads.grad_beta,
      numerical_grad([&](const Tensor& v) { return tl::layer_norm(x, g, v, c.eps).output; }, b,
                     upstream),
      kGradAtol, kGradRtol));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LayerNormGrad,
    ::testing::Values(LayerNormCase{"plain_rows", {3, 4}, false, 1e-5},
                      LayerNormCase{"affine_rows", {2, 5}, true, 1e-5},
                      LayerNormCase{"affine_3d", {2, 2, 3}, true, 1e-5},
                      LayerNormCase{"large_eps", {2, 4}, true, 0.1}),
    [](const ::testing::TestParamInfo<LayerNormCase>& info) {
      return std::string(info.param.name);
    });

TEST(LayerNorm, EmptyBatchGivesEmptyOutputAndStatistics) {
  const tl::LayerNormResult r =
      tl::layer_norm(Tensor::zeros({0, 4}, DType::Float64), Tensor::ones({4}), Tensor::zeros({4}));
  EXPECT_EQ(r.output.shape(), (Shape{0, 4}));
  EXPECT_EQ(r.mean.shape(), (Shape{0}));
  EXPECT_EQ(r.rstd.shape(), (Shape{0}));
}

TEST(LayerNormErrors, AffineShapeMustMatchLastDim) {
  EXPECT_THROW(tl::layer_norm(Tensor::zeros({2, 3}), Tensor::ones({2}), Tensor()), tl::ShapeError);
  EXPECT_THROW(tl::layer_norm(Tensor::zeros({2, 3}), Tensor(), Tensor::ones({3, 1})),
               tl::ShapeError);
}

TEST(LayerNormErrors, EmptyLastDimAndNegativeEpsThrow) {
  EXPECT_THROW(tl::layer_norm(Tensor::zeros({2, 0}), Tensor(), Tensor()), tl::ShapeError);
  EXPECT_THROW(tl::layer_norm(Tensor::zeros({2, 3}), Tensor(), Tensor(), -1.0), tl::ArgumentError);
}

}  // namespace
