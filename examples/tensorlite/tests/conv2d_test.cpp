// Tests for NCHW conv2d and its gradients (conv2d.h).
#include <ostream>
#include <string>
#include <tuple>

#include "test_util.h"

namespace {

namespace tl = tensorlite;
using tl::Conv2dParams;
using tl::DType;
using tl::Shape;
using tltest::Tensor;
using tltest::kGradAtol;
using tltest::kGradRtol;
using tltest::numerical_grad;
using tltest::random_tensor;
using tltest::tensor_close;

struct ConvCase {
  const char* name;
  std::int64_t batch, channels, height, width;
  std::int64_t out_channels, kernel_h, kernel_w;
  Conv2dParams params;
  bool bias;
  std::int64_t out_h, out_w;  // by hand
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const ConvCase& c) { return os << c.name; }

// Naive reference straight from the definition, zero padding made explicit.
std::vector<double> reference_conv(const ConvCase& c, const Tensor& x, const Tensor& w,
                                   const Tensor& b) {
  std::vector<double> y;
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t o = 0; o < c.out_channels; ++o) {
      for (std::int64_t i = 0; i < c.out_h; ++i) {
        for (std::int64_t j = 0; j < c.out_w; ++j) {
          double acc = b.defined() ? b.at({o}) : 0.0;
          for (std::int64_t ch = 0; ch < c.channels; ++ch) {
            for (std::int64_t p = 0; p < c.kernel_h; ++p) {
              for (std::int64_t q = 0; q < c.kernel_w; ++q) {
                const std::int64_t row = i * c.params.stride_h + p - c.params.pad_h;
                const std::int64_t col = j * c.params.stride_w + q - c.params.pad_w;
                const bool inside = row >= 0 && row < c.height && col >= 0 && col < c.width;
                acc += (inside ? x.at({n, ch, row, col}) : 0.0) * w.at({o, ch, p, q});
              }
            }
          }
          y.push_back(acc);
        }
      }
    }
  }
  return y;
}

class Conv2d : public ::testing::TestWithParam<ConvCase> {
 protected:
  Tensor input() const {
    const ConvCase& c = GetParam();
    return random_tensor({c.batch, c.channels, c.height, c.width}, 51);
  }
  Tensor weight() const {
    const ConvCase& c = GetParam();
    return random_tensor({c.out_channels, c.channels, c.kernel_h, c.kernel_w}, 52);
  }
  Tensor bias() const {
    const ConvCase& c = GetParam();
    return c.bias ? random_tensor({c.out_channels}, 53) : Tensor();
  }
  Shape out_shape() const {
    const ConvCase& c = GetParam();
    return {c.batch, c.out_channels, c.out_h, c.out_w};
  }
};

TEST_P(Conv2d, ForwardMatchesNaiveReference) {
  const ConvCase& c = GetParam();
  const Tensor x = input();
  const Tensor w = weight();
  const Tensor b = bias();
  EXPECT_TRUE(tensor_close(tl::conv2d(x, w, b, c.params), out_shape(), reference_conv(c, x, w, b),
                           1e-12, 1e-12));
}

TEST_P(Conv2d, InputGradientMatchesFiniteDifferences) {
  const ConvCase& c = GetParam();
  const Tensor x = input();
  const Tensor w = weight();
  const Tensor b = bias();
  const Tensor upstream = random_tensor(out_shape(), 54);
  const tl::Conv2dGrads grads = tl::conv2d_backward(upstream, x, w, c.bias, c.params);
  const Tensor numeric =
      numerical_grad([&](const Tensor& v) { return tl::conv2d(v, w, b, c.params); }, x, upstream);
  EXPECT_TRUE(tensor_close(grads.grad_input, numeric, kGradAtol, kGradRtol));
}

TEST_P(Conv2d, WeightGradientMatchesFiniteDifferences) {
  const ConvCase& c = GetParam();
  const Tensor x = input();
  const Tensor w = weight();
  const Tensor b = bias();
  const Tensor upstream = random_tensor(out_shape(), 55);
  const tl::Conv2dGrads grads = tl::conv2d_backward(upstream, x, w, c.bias, c.params);
  const Tensor numeric =
      numerical_grad([&](const Tensor& v) { return tl::conv2d(x, v, b, c.params); }, w, upstream);
  EXPECT_TRUE(tensor_close(grads.grad_weight, numeric, kGradAtol, kGradRtol));
}

TEST_P(Conv2d, BiasGradientSumsOutputGradient) {
  const ConvCase& c = GetParam();
  const Tensor upstream = random_tensor(out_shape(), 56);
  const tl::Conv2dGrads grads = tl::conv2d_backward(upstream, input(), weight(), c.bias, c.params);
  if (!c.bias) {
    EXPECT_FALSE(grads.grad_bias.defined());
    return;
  }
  std::vector<double> expected(static_cast<std::size_t>(c.out_channels), 0.0);
  const std::vector<double> g = upstream.to_vector();
  for (std::size_t i = 0; i < g.size(); ++i) {
    expected[(i / static_cast<std::size_t>(c.out_h * c.out_w)) %
             static_cast<std::size_t>(c.out_channels)] += g[i];
  }
  EXPECT_TRUE(tensor_close(grads.grad_bias, {c.out_channels}, expected, 1e-12, 1e-12));
}

INSTANTIATE_TEST_SUITE_P(
    Configs, Conv2d,
    ::testing::Values(
        ConvCase{"basic3x3", 1, 1, 5, 5, 1, 3, 3, Conv2dParams{}, false, 3, 3},
        ConvCase{"channels_bias", 2, 3, 4, 4, 2, 3, 3, Conv2dParams{}, true, 2, 2},
        ConvCase{"stride2", 1, 2, 7, 7, 3, 3, 3, Conv2dParams::square(2, 0), true, 3, 3},
        ConvCase{"same_padding", 1, 2, 4, 5, 2, 3, 3, Conv2dParams::square(1, 1), true, 4, 5},
        ConvCase{"stride2_pad1", 2, 1, 5, 5, 2, 3, 3, Conv2dParams::square(2, 1), false, 3, 3},
        ConvCase{"rect_kernel_pad", 1, 2, 4, 6, 1, 2, 3, Conv2dParams{1, 2, 1, 0}, true, 5, 2},
        ConvCase{"pointwise", 2, 4, 3, 3, 3, 1, 1, Conv2dParams{}, true, 3, 3}),
    [](const ::testing::TestParamInfo<ConvCase>& info) { return std::string(info.param.name); });

TEST(Conv2dHand, OnesKernelSumsWindows) {
  const Tensor x = Tensor::from_vector(tltest::iota(9, 1), {1, 1, 3, 3}, DType::Float64);
  const Tensor w = Tensor::ones({1, 1, 2, 2}, DType::Float64);
  EXPECT_TRUE(tensor_close(tl::conv2d(x, w, Tensor()), {1, 1, 2, 2}, {12, 16, 24, 28}));
}

TEST(Conv2dHand, PaddingAddsZeroBorder) {
  const Tensor x = Tensor::ones({1, 1, 2, 2}, DType::Float64);
  const Tensor w = Tensor::ones({1, 1, 3, 3}, DType::Float64);
  EXPECT_TRUE(tensor_close(tl::conv2d(x, w, Tensor(), Conv2dParams::square(1, 1)), {1, 1, 2, 2},
                           {4, 4, 4, 4}));
}

TEST(Conv2dHand, BiasIsAddedPerChannel) {
  const Tensor x = Tensor::zeros({1, 1, 2, 2}, DType::Float64);
  const Tensor w = Tensor::ones({2, 1, 1, 1}, DType::Float64);
  const Tensor b = Tensor::from_vector({1.5, -2}, {2}, DType::Float64);
  EXPECT_TRUE(tensor_close(tl::conv2d(x, w, b), {1, 2, 2, 2}, {1.5, 1.5, 1.5, 1.5, -2, -2, -2, -2}));
}

using SizeCase = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

class ConvOutputSize : public ::testing::TestWithParam<SizeCase> {};

TEST_P(ConvOutputSize, FloorsTheLastPartialWindow) {
  const auto [in, kernel, stride, pad, expected] = GetParam();
  EXPECT_EQ(tl::conv_output_size(in, kernel, stride, pad), expected);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ConvOutputSize,
                         ::testing::Values(SizeCase{5, 3, 1, 0, 3}, SizeCase{5, 3, 1, 1, 5},
                                           SizeCase{7, 3, 2, 0, 3}, SizeCase{8, 3, 2, 0, 3},
                                           SizeCase{8, 3, 2, 1, 4}, SizeCase{1, 1, 1, 0, 1}));

TEST(Conv2dErrors, KernelLargerThanPaddedInputThrows) {
  EXPECT_THROW(tl::conv_output_size(2, 5, 1, 1), tl::ShapeError);
  EXPECT_THROW(tl::conv2d(Tensor::zeros({1, 1, 2, 2}), Tensor::zeros({1, 1, 3, 3}), Tensor()),
               tl::ShapeError);
}

TEST(Conv2dErrors, ChannelMismatchThrows) {
  EXPECT_THROW(tl::conv2d(Tensor::zeros({1, 3, 4, 4}), Tensor::zeros({2, 2, 3, 3}), Tensor()),
               tl::ShapeError);
}

TEST(Conv2dErrors, BadBiasOrRankThrows) {
  EXPECT_THROW(tl::conv2d(Tensor::zeros({1, 1, 4, 4}), Tensor::zeros({2, 1, 3, 3}),
                          Tensor::zeros({3})),
               tl::ShapeError);
  EXPECT_THROW(tl::conv2d(Tensor::zeros({1, 4, 4}), Tensor::zeros({2, 1, 3, 3}), Tensor()),
               tl::ShapeError);
}

TEST(Conv2dErrors, BadParamsThrow) {
  const Tensor x = Tensor::zeros({1, 1, 4, 4});
  const Tensor w = Tensor::zeros({1, 1, 3, 3});
  EXPECT_THROW(tl::conv2d(x, w, Tensor(), Conv2dParams::square(0, 0)), tl::ArgumentError);
  EXPECT_THROW(tl::conv2d(x, w, Tensor(), Conv2dParams::square(1, -1)), tl::ArgumentError);
}

TEST(Conv2dErrors, BackwardGradientShapeIsChecked) {
  EXPECT_THROW(tl::conv2d_backward(Tensor::zeros({1, 1, 3, 3}), Tensor::zeros({1, 1, 4, 4}),
                                   Tensor::zeros({1, 1, 3, 3}), false),
               tl::ShapeError);
}

}  // namespace
