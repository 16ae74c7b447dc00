// End-to-end checks: the ops, backward functions and optimizers train tiny models.
#include <cmath>
#include <tuple>

#include "test_util.h"

namespace {

namespace tl = tensorlite;
using tl::DType;
using tltest::Tensor;
using tltest::random_tensor;

// Fits y = X w_true + b_true with a linear layer, MSE and SGD with momentum.
TEST(Training, LinearRegressionConverges) {
  const Tensor x = random_tensor({16, 3}, 91);
  const Tensor w_true = Tensor::from_vector({2, -1, 0.5}, {3, 1}, DType::Float64);
  const Tensor y = tl::add_scalar(tl::matmul(x, w_true), 0.3);
  tl::Generator gen(1);
  Tensor w = tl::xavier_uniform({3, 1}, gen, 1.0, DType::Float64);
  Tensor b = Tensor::zeros({1}, DType::Float64);
  tl::Sgd opt({w, b}, tl::SgdOptions{.lr = 0.1, .momentum = 0.9});
  double loss = 0.0;
  for (int step = 0; step < 150; ++step) {
    const Tensor pred = tl::add(tl::matmul(x, w), b);
    loss = tl::mse_loss(pred, y).item();
    const Tensor grad_pred = tl::mse_loss_backward(Tensor::scalar(1.0, DType::Float64), pred, y);
    const tl::BinaryGrads add_grads = tl::add_backward(grad_pred, pred.shape(), b.shape());
    const tl::MatmulGrads mm = tl::matmul_backward(add_grads.grad_a, x, w);
    opt.step({mm.grad_b, add_grads.grad_b});
  }
  EXPECT_LT(loss, 1e-6);
  EXPECT_TRUE(tltest::tensor_close(w, {3, 1}, {2, -1, 0.5}, 1e-3, 0));
  EXPECT_NEAR(b.item(), 0.3, 1e-3);
}

// Two-layer MLP (linear, relu, linear) on a separable 2-class problem with Adam.
TEST(Training, MlpClassifierLearnsSeparableData) {
  const Tensor x = random_tensor({12, 2}, 92, DType::Float64, -1, 1);
  std::vector<double> labels;
  for (const double v : tl::sum(x, 1).to_vector()) {
    labels.push_back(v > 0 ? 1 : 0);
  }
  const Tensor targets = Tensor::from_vector(labels, {12}, DType::Int64);
  tl::Generator gen(2);
  // Weights in the [out, in] layout the initialisers assume; layers compute x W^T.
  Tensor w1 = tl::kaiming_uniform({8, 2}, gen, tl::FanMode::FanIn, tl::Nonlinearity::Relu,
                                  DType::Float64);
  Tensor w2 = tl::xavier_uniform({2, 8}, gen, 1.0, DType::Float64);
  tl::Adam opt({w1, w2}, tl::AdamOptions{.lr = 0.05});
  double first_loss = 0.0;
  double loss = 0.0;
  for (int step = 0; step < 60; ++step) {
    const Tensor h_pre = tl::matmul(x, w1.transpose(0, 1));
    const Tensor h = tl::relu(h_pre);
    const Tensor logits = tl::matmul(h, w2.transpose(0, 1));
    loss = tl::cross_entropy(logits, targets).item();
    if (step == 0) {
      first_loss = loss;
    }
    const Tensor g_logits =
        tl::cross_entropy_backward(Tensor::scalar(1.0, DType::Float64), logits, targets);
    const tl::MatmulGrads g2 = tl::matmul_backward(g_logits, h, w2.transpose(0, 1));
    const Tensor g_h = tl::relu_backward(g2.grad_a, h_pre);
    const tl::MatmulGrads g1 = tl::matmul_backward(g_h, x, w1.transpose(0, 1));
    opt.step({g1.grad_b.transpose(0, 1), g2.grad_b.transpose(0, 1)});
  }
  EXPECT_LT(loss, 0.5 * first_loss);
  EXPECT_LT(loss, 0.3);
}

// One conv + layer norm step: the loss must go down after a small SGD step along -grad.
TEST(Training, ConvLayerNormStepReducesLoss) {
  const Tensor x = random_tensor({2, 1, 5, 5}, 93);
  const tl::Conv2dParams params = tl::Conv2dParams::square(1, 1);
  Tensor w = random_tensor({2, 1, 3, 3}, 94, DType::Float64, -0.5, 0.5);
  const auto forward = [&](const Tensor& weight) {
    const Tensor y = tl::conv2d(x, weight, Tensor(), params);  // [2, 2, 5, 5]
    const tl::LayerNormResult ln = tl::layer_norm(y, Tensor(), Tensor());
    const Tensor target = Tensor::zeros(y.shape(), DType::Float64);
    return std::make_tuple(y, ln, tl::mse_loss(tl::tanh(ln.output), target));
  };
  const auto [y, ln, loss] = forward(w);
  const Tensor t = tl::tanh(ln.output);
  const Tensor g_t = tl::mse_loss_backward(Tensor::scalar(1.0, DType::Float64), t,
                                           Tensor::zeros(t.shape(), DType::Float64));
  const Tensor g_ln = tl::tanh_backward(g_t, t);
  const Tensor g_y = tl::layer_norm_backward(g_ln, y, Tensor(), Tensor(), ln).grad_input;
  const Tensor g_w = tl::conv2d_backward(g_y, x, w, false, params).grad_weight;
  tl::Sgd opt({w}, tl::SgdOptions{.lr = 0.05});
  opt.step({g_w});
  EXPECT_LT(std::get<2>(forward(w)).item(), loss.item());
}

}  // namespace
