// Tests for the SGD and Adam optimizers against hand-computed updates (optim.h).
#include <cmath>

#include "test_util.h"

namespace {

namespace tl = tensorlite;
using tl::Adam;
using tl::AdamOptions;
using tl::DType;
using tl::Sgd;
using tl::SgdOptions;
using tltest::Tensor;
using tltest::tensor_close;

Tensor vec(const std::vector<double>& v, DType dtype = DType::Float64) {
  return Tensor::from_vector(v, {static_cast<std::int64_t>(v.size())}, dtype);
}

TEST(Sgd, PlainStep) {
  Tensor w = vec({1, 2});
  Sgd opt({w}, SgdOptions{.lr = 0.1});
  opt.step({vec({0.5, -1})});
  EXPECT_TRUE(tensor_close(w, {2}, {0.95, 2.1}, 1e-12, 1e-12));
}

TEST(Sgd, WeightDecayAddsL2Gradient) {
  Tensor w = vec({1, 2});
  Sgd opt({w}, SgdOptions{.lr = 0.1, .weight_decay = 0.1});
  opt.step({vec({0.5, -1})});
  EXPECT_TRUE(tensor_close(w, {2}, {0.94, 2.08}, 1e-12, 1e-12));
}

TEST(Sgd, MomentumAccumulates) {
  Tensor w = vec({1});
  Sgd opt({w}, SgdOptions{.lr = 0.1, .momentum = 0.9});
  opt.step({vec({1})});  // buffer = 1
  EXPECT_TRUE(tensor_close(w, {1}, {0.9}, 1e-12, 1e-12));
  opt.step({vec({1})});  // buffer = 0.9 * 1 + 1 = 1.9
  EXPECT_TRUE(tensor_close(w, {1}, {0.71}, 1e-12, 1e-12));
}

TEST(Sgd, DampeningScalesNewGradients) {
  Tensor w = vec({1});
  Sgd opt({w}, SgdOptions{.lr = 0.1, .momentum = 0.9, .dampening = 0.5});
  opt.step({vec({1})});  // the first step is never dampened
  opt.step({vec({1})});  // buffer = 0.9 + 0.5 = 1.4
  EXPECT_TRUE(tensor_close(w, {1}, {0.76}, 1e-12, 1e-12));
}

TEST(Sgd, NesterovLooksAhead) {
  Tensor w = vec({1});
  Sgd opt({w}, SgdOptions{.lr = 0.1, .momentum = 0.9, .nesterov = true});
  opt.step({vec({1})});  // d = 1 + 0.9 * 1
  EXPECT_TRUE(tensor_close(w, {1}, {0.81}, 1e-12, 1e-12));
  opt.step({vec({1})});  // buffer 1.9, d = 1 + 0.9 * 1.9
  EXPECT_TRUE(tensor_close(w, {1}, {0.539}, 1e-12, 1e-12));
}

TEST(Sgd, UpdatesAreVisibleThroughAliases) {
  Tensor base = Tensor::from_vector({1, 2, 3, 4}, {2, 2}, DType::Float32);
  Tensor column = base.slice(1, 1, 2);  // a strided view of the second column
  Sgd opt({column}, SgdOptions{.lr = 1.0});
  opt.step({Tensor::ones({2, 1})});
  EXPECT_TRUE(tensor_close(base, {2, 2}, {1, 1, 3, 3}));
}

TEST(Sgd, Float16ParametersRoundOnStore) {
  Tensor w = vec({1}, DType::Float16);
  Sgd opt({w}, SgdOptions{.lr = 1.0});
  opt.step({vec({std::ldexp(1.0, -12)})});
  EXPECT_EQ(w.item(), 1.0);  // 1 - 2^-12 rounds back to 1 in float16
}

TEST(SgdErrors, InvalidOptionsThrow) {
  EXPECT_THROW(Sgd({vec({1})}, SgdOptions{.lr = -1}), tl::ArgumentError);
  EXPECT_THROW(Sgd({vec({1})}, SgdOptions{.lr = 0.1, .nesterov = true}), tl::ArgumentError);
  EXPECT_THROW(Sgd({vec({1})}, SgdOptions{.lr = 0.1, .momentum = 0.9, .dampening = 0.1,
                                          .nesterov = true}),
               tl::ArgumentError);
}

TEST(SgdErrors, GradientsMustMatchParameters) {
  Sgd opt({vec({1, 2})}, SgdOptions{});
  EXPECT_THROW(opt.step({}), tl::ArgumentError);
  EXPECT_THROW(opt.step({vec({1, 2, 3})}), tl::ShapeError);
}

TEST(SgdErrors, IntegerParametersAreRejected) {
  EXPECT_THROW(Sgd({Tensor::ones({2}, DType::Int32)}, SgdOptions{}), tl::DTypeError);
}

// Adam exactly as in Kingma & Ba, Algorithm 1, for one scalar parameter.
struct ReferenceAdam {
  double lr, beta1, beta2, eps;
  double m = 0.0;
  double v = 0.0;
  int t = 0;

  double step(double w, double g) {
    ++t;
    m = beta1 * m + (1 - beta1) * g;
    v = beta2 * v + (1 - beta2) * g * g;
    const double m_hat = m / (1 - std::pow(beta1, t));
    const double v_hat = v / (1 - std::pow(beta2, t));
    return w - lr * m_hat / (std::sqrt(v_hat) + eps);
  }
};

TEST(Adam, FirstStepMovesByLearningRate) {
  // After bias correction m_hat = g and v_hat = g^2, so the first step is lr * sign(g).
  Tensor w = vec({1, -1});
  Adam opt({w}, AdamOptions{.lr = 0.1});
  opt.step({vec({0.5, -2})});
  EXPECT_TRUE(tensor_close(w, {2}, {0.9, -0.9}, 1e-7, 0));
  EXPECT_EQ(opt.step_count(), 1);
}

TEST(Adam, MatchesReferenceOverSeveralSteps) {
  const AdamOptions options{.lr = 0.05, .beta1 = 0.8, .beta2 = 0.99, .eps = 1e-8};
  Tensor w = vec({0.3});
  Adam opt({w}, options);
  ReferenceAdam ref{options.lr, options.beta1, options.beta2, options.eps};
  double expected = 0.3;
  for (const double g : {1.0, -0.5, 2.0, 0.1}) {
    opt.step({vec({g})});
    expected = ref.step(expected, g);
    ASSERT_NEAR(w.item(), expected, 1e-12);
  }
}

TEST(Adam, EqualBetasReduceToSignLikeSteps) {
  // With beta1 == beta2 and a constant gradient the corrected moments are g and g^2.
  Tensor w = vec({0});
  Adam opt({w}, AdamOptions{.lr = 0.2, .beta1 = 0.5, .beta2 = 0.5, .eps = 0});
  opt.step({vec({3})});
  opt.step({vec({3})});
  EXPECT_TRUE(tensor_close(w, {1}, {-0.4}, 1e-12, 1e-12));
}

TEST(Adam, WeightDecayActsThroughTheGradient) {
  Tensor w = vec({2});
  Adam opt({w}, AdamOptions{.lr = 0.1, .eps = 0, .weight_decay = 0.5});
  opt.step({vec({0})});  // d = 0.5 * 2 = 1, a full lr step
  EXPECT_TRUE(tensor_close(w, {1}, {1.9}, 1e-12, 1e-12));
}

TEST(Adam, ZeroGradientLeavesParametersUnchanged) {
  Tensor w = vec({1, 2, 3});
  Adam opt({w}, AdamOptions{});
  opt.step({vec({0, 0, 0})});
  EXPECT_EQ(w.to_vector(), (std::vector<double>{1, 2, 3}));
}

TEST(AdamErrors, InvalidOptionsThrow) {
  EXPECT_THROW(Adam({vec({1})}, AdamOptions{.beta1 = 1.0}), tl::ArgumentError);
  EXPECT_THROW(Adam({vec({1})}, AdamOptions{.beta2 = -0.1}), tl::ArgumentError);
  EXPECT_THROW(Adam({vec({1})}, AdamOptions{.eps = -1}), tl::ArgumentError);
}

TEST(AdamErrors, GradientsMustMatchParameters) {
  Tensor w = vec({1, 2});
  Adam opt({w}, AdamOptions{});
  EXPECT_THROW(opt.step({}), tl::ArgumentError);
  EXPECT_THROW(opt.step({vec({1, 2, 3})}), tl::ShapeError);
  // A rejected step changes nothing: no parameter update, no step counted.
  EXPECT_EQ(w.to_vector(), (std::vector<double>{1, 2}));
  EXPECT_EQ(opt.step_count(), 0);
}

}  // namespace
