// Tests for broadcasting element-wise ops and their gradients (elementwise.h).
#include <cmath>
#include <functional>
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

enum class BinaryOp { Add, Sub, Mul, Div };

Tensor apply(BinaryOp op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case BinaryOp::Add:
      return tl::add(a, b);
    case BinaryOp::Sub:
      return tl::sub(a, b);
    case BinaryOp::Mul:
      return tl::mul(a, b);
    case BinaryOp::Div:
      return tl::div(a, b);
  }
  return {};
}

double apply_scalar(BinaryOp op, double x, double y) {
  switch (op) {
    case BinaryOp::Add:
      return x + y;
    case BinaryOp::Sub:
      return x - y;
    case BinaryOp::Mul:
      return x * y;
    case BinaryOp::Div:
      return x / y;
  }
  return 0.0;
}

struct BinaryCase {
  const char* name;
  BinaryOp op;
  Shape a;
  Shape b;
  Shape out;  // written out by hand, not computed with broadcast_shapes
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const BinaryCase& c) { return os << c.name; }

// Naive reference: for every output index, read each input at its broadcast index.
std::vector<double> reference(const BinaryCase& c, const Tensor& a, const Tensor& b) {
  std::vector<double> out(static_cast<std::size_t>(tl::shape_numel(c.out)));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto index = tltest::unravel(static_cast<std::int64_t>(i), c.out);
    out[i] = apply_scalar(c.op, a.at(tltest::broadcast_index(index, c.a)),
                          b.at(tltest::broadcast_index(index, c.b)));
  }
  return out;
}

class BinaryOps : public ::testing::TestWithParam<BinaryCase> {};

TEST_P(BinaryOps, MatchNaiveBroadcastReference) {
  const BinaryCase& c = GetParam();
  const Tensor a = random_tensor(c.a, 1);
  const Tensor b = random_tensor(c.b, 2, DType::Float64, 0.5, 2.0);  // keeps div away from 0
  EXPECT_TRUE(tensor_close(apply(c.op, a, b), c.out, reference(c, a, b), 1e-12, 1e-12));
}

TEST_P(BinaryOps, GradientsMatchFiniteDifferences) {
  const BinaryCase& c = GetParam();
  const Tensor a = random_tensor(c.a, 3);
  const Tensor b = random_tensor(c.b, 4, DType::Float64, 0.5, 2.0);
  const Tensor upstream = random_tensor(c.out, 5);
  tl::BinaryGrads grads;
  switch (c.op) {
    case BinaryOp::Add:
      grads = tl::add_backward(upstream, a.shape(), b.shape());
      break;
    case BinaryOp::Sub:
      grads = tl::sub_backward(upstream, a.shape(), b.shape());
      break;
    case BinaryOp::Mul:
      grads = tl::mul_backward(upstream, a, b);
      break;
    case BinaryOp::Div:
      grads = tl::div_backward(upstream, a, b);
      break;
  }
  const Tensor num_a = numerical_grad([&](const Tensor& x) { return apply(c.op, x, b); }, a,
                                      upstream);
  const Tensor num_b = numerical_grad([&](const Tensor& y) { return apply(c.op, a, y); }, b,
                                      upstream);
  EXPECT_TRUE(tensor_close(grads.grad_a, num_a, kGradAtol, kGradRtol));
  EXPECT_TRUE(tensor_close(grads.grad_b, num_b, kGradAtol, kGradRtol));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BinaryOps,
    ::testing::Values(BinaryCase{"add_same", BinaryOp::Add, {2, 3}, {2, 3}, {2, 3}},
                      BinaryCase{"add_row", BinaryOp::Add, {3, 4}, {4}, {3, 4}},
                      BinaryCase{"add_outer", BinaryOp::Add, {3, 1}, {1, 4}, {3, 4}},
                      BinaryCase{"add_scalar_tensor", BinaryOp::Add, {2, 2}, {}, {2, 2}},
                      BinaryCase{"sub_same", BinaryOp::Sub, {4}, {4}, {4}},
                      BinaryCase{"sub_leading", BinaryOp::Sub, {2, 3, 4}, {3, 1}, {2, 3, 4}},
                      BinaryCase{"mul_same", BinaryOp::Mul, {3, 2}, {3, 2}, {3, 2}},
                      BinaryCase{"mul_both_stretch", BinaryOp::Mul, {2, 1, 3}, {4, 1}, {2, 4, 3}},
                      BinaryCase{"div_same", BinaryOp::Div, {5}, {5}, {5}},
                      BinaryCase{"div_column", BinaryOp::Div, {3, 4}, {3, 1}, {3, 4}}),
    [](const ::testing::TestParamInfo<BinaryCase>& info) { return std::string(info.param.name); });

TEST(Broadcasting, ZeroSizedDimensionStaysEmpty) {
  const Tensor out = tl::add(Tensor::zeros({0, 3}), Tensor::ones({1, 3}));
  EXPECT_EQ(out.shape(), (Shape{0, 3}));
  EXPECT_EQ(out.numel(), 0);
}

TEST(Broadcasting, IncompatibleShapesThrow) {
  EXPECT_THROW(tl::add(Tensor::zeros({3, 4}), Tensor::zeros({3})), tl::ShapeError);
  EXPECT_THROW(tl::mul(Tensor::zeros({2, 3}), Tensor::zeros({3, 2})), tl::ShapeError);
}

TEST(Broadcasting, NonContiguousOperands) {
  const Tensor a = Tensor::from_vector(tltest::iota(6), {2, 3}, DType::Float64).transpose(0, 1);
  const Tensor b = Tensor::from_vector({10, 20}, {2}, DType::Float64);
  EXPECT_TRUE(tensor_close(tl::add(a, b), {3, 2}, {10, 23, 11, 24, 12, 25}));
}

TEST(Broadcasting, OperatorsMatchFunctions) {
  const Tensor a = Tensor::from_vector({6, 8}, {2}, DType::Float64);
  const Tensor b = Tensor::from_vector({2, 4}, {2}, DType::Float64);
  EXPECT_TRUE(tensor_close(a + b, {2}, {8, 12}));
  EXPECT_TRUE(tensor_close(a - b, {2}, {4, 4}));
  EXPECT_TRUE(tensor_close(a * b, {2}, {12, 32}));
  EXPECT_TRUE(tensor_close(a / b, {2}, {3, 2}));
}

// --- dtype behaviour ---------------------------------------------------------------------

TEST(ElementwiseDType, IntPlusFloatIsFloat) {
  const Tensor out = tl::add(Tensor::ones({2}, DType::Int32), Tensor::full({2}, 0.5));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.to_vector(), (std::vector<double>{1.5, 1.5}));
}

TEST(ElementwiseDType, IntArithmeticStaysInteger) {
  const Tensor out = tl::mul(Tensor::full({2}, 3, DType::Int32), Tensor::full({2}, 4, DType::Int64));
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(out.to_vector(), (std::vector<double>{12, 12}));
}

TEST(ElementwiseDType, IntegerDivisionIsTrueDivision) {
  const Tensor out = tl::div(Tensor::full({1}, 7, DType::Int32), Tensor::full({1}, 2, DType::Int32));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.item(), 3.5);
}

TEST(ElementwiseDType, HalfComputesInFloatAndRoundsOnStore) {
  const Tensor one = Tensor::ones({1}, DType::Float16);
  const Tensor tiny = Tensor::full({1}, std::ldexp(1.0, -11), DType::Float16);
  const Tensor out = tl::add(one, tiny);
  EXPECT_EQ(out.dtype(), DType::Float16);
  EXPECT_EQ(out.item(), 1.0);  // 1 + 2^-11 ties to even in float16
  EXPECT_EQ(tl::add(Tensor::full({1}, 0.5, DType::Float16), Tensor::full({1}, 0.25, DType::Float16))
                .item(),
            0.75);
}

TEST(ElementwiseDType, TranscendentalOfIntegerIsFloat32) {
  const Tensor out = tl::exp(Tensor::zeros({2}, DType::Int64));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(out.to_vector(), (std::vector<double>{1, 1}));
}

TEST(ElementwiseDType, ReluKeepsIntegerDType) {
  const Tensor out = tl::relu(Tensor::from_vector({-2, 0, 3}, {3}, DType::Int32));
  EXPECT_EQ(out.dtype(), DType::Int32);
  EXPECT_EQ(out.to_vector(), (std::vector<double>{0, 0, 3}));
}

TEST(ScalarOps, AddAndMultiplyByScalar) {
  const Tensor x = Tensor::from_vector({1, -2}, {2}, DType::Float64);
  EXPECT_TRUE(tensor_close(tl::add_scalar(x, 0.5), {2}, {1.5, -1.5}));
  EXPECT_TRUE(tensor_close(tl::mul_scalar(x, -3), {2}, {-3, 6}));
}

// --- unary ops ---------------------------------------------------------------------------

struct UnaryCase {
  const char* name;
  std::function<Tensor(const Tensor&)> forward;
  std::function<double(double)> reference;
  // backward(grad, x, y) -> dx
  std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)> backward;
  double lo;
  double hi;
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const UnaryCase& c) { return os << c.name; }

double gelu_ref(double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); }

const UnaryCase kUnaryCases[] = {
    {"neg", [](const Tensor& x) { return tl::neg(x); }, [](double v) { return -v; },
     [](const Tensor& g, const Tensor&, const Tensor&) { return tl::neg(g); }, -2, 2},
    {"relu", [](const Tensor& x) { return tl::relu(x); }, [](double v) { return v > 0 ? v : 0; },
     [](const Tensor& g, const Tensor& x, const Tensor&) { return tl::relu_backward(g, x); }, -2,
     2},
    {"gelu", [](const Tensor& x) { return tl::gelu(x); }, gelu_ref,
     [](const Tensor& g, const Tensor& x, const Tensor&) { return tl::gelu_backward(g, x); }, -3,
     3},
    {"tanh", [](const Tensor& x) { return tl::tanh(x); }, [](double v) { return std::tanh(v); },
     [](const Tensor& g, const Tensor&, const Tensor& y) { return tl::tanh_backward(g, y); }, -2,
     2},
    {"sigmoid", [](const Tensor& x) { return tl::sigmoid(x); },
     [](double v) { return 1.0 / (1.0 + std::exp(-v)); },
     [](const Tensor& g, const Tensor&, const Tensor& y) { return tl::sigmoid_backward(g, y); },
     -4, 4},
    {"exp", [](const Tensor& x) { return tl::exp(x); }, [](double v) { return std::exp(v); },
     [](const Tensor& g, const Tensor&, const Tensor& y) { return tl::exp_backward(g, y); }, -2,
     2},
    {"log", [](const Tensor& x) { return tl::log(x); }, [](double v) { return std::log(v); },
     [](const Tensor& g, const Tensor& x, const Tensor&) { return tl::log_backward(g, x); }, 0.2,
     3},
};

class UnaryOps : public ::testing::TestWithParam<UnaryCase> {};

TEST_P(UnaryOps, MatchStdReference) {
  const UnaryCase& c = GetParam();
  const Tensor x = random_tensor({3, 5}, 11, DType::Float64, c.lo, c.hi);
  std::vector<double> expected = x.to_vector();
  for (double& v : expected) {
    v = c.reference(v);
  }
  EXPECT_TRUE(tensor_close(c.forward(x), {3, 5}, expected, 1e-12, 1e-12));
}

TEST_P(UnaryOps, GradientMatchesFiniteDifferences) {
  const UnaryCase& c = GetParam();
  // Offset away from relu's kink at 0, where finite differences are meaningless.
  const Tensor x = tl::add_scalar(random_tensor({2, 4}, 12, DType::Float64, c.lo, c.hi), 0.01);
  const Tensor upstream = random_tensor({2, 4}, 13);
  const Tensor analytic = c.backward(upstream, x, c.forward(x));
  EXPECT_TRUE(tensor_close(analytic, numerical_grad(c.forward, x, upstream), kGradAtol, kGradRtol));
}

TEST_P(UnaryOps, Float32MatchesFloat64) {
  const UnaryCase& c = GetParam();
  const Tensor x = random_tensor({7}, 14, DType::Float64, c.lo, c.hi);
  const Tensor f32 = c.forward(x.to(DType::Float32));
  EXPECT_EQ(f32.dtype(), DType::Float32);
  EXPECT_TRUE(tensor_close(f32, c.forward(x), 1e-5, 1e-5));
}

INSTANTIATE_TEST_SUITE_P(
    Ops, UnaryOps, ::testing::ValuesIn(kUnaryCases),
    [](const ::testing::TestParamInfo<UnaryCase>& info) { return std::string(info.param.name); });

TEST(UnaryEdgeCases, SigmoidIsStableForLargeInputs) {
  const Tensor out = tl::sigmoid(Tensor::from_vector({-1000, 1000}, {2}, DType::Float32));
  EXPECT_EQ(out.to_vector(), (std::vector<double>{0, 1}));
}

TEST(UnaryEdgeCases, ReluGradientAtZeroIsZero) {
  const Tensor g = tl::relu_backward(Tensor::ones({3}, DType::Float64),
                                     Tensor::from_vector({-1, 0, 1}, {3}, DType::Float64));
  EXPECT_EQ(g.to_vector(), (std::vector<double>{0, 0, 1}));
}

TEST(UnaryEdgeCases, LogOfZeroIsMinusInfinity) {
  EXPECT_EQ(tl::log(Tensor::zeros({1}, DType::Float64)).item(), -INFINITY);
}

TEST(UnaryEdgeCases, BackwardShapeMismatchThrows) {
  EXPECT_THROW(tl::relu_backward(Tensor::ones({3}), Tensor::ones({4})), tl::ShapeError);
  EXPECT_THROW(tl::exp_backward(Tensor::ones({2, 2}), Tensor::ones({4})), tl::ShapeError);
}

}  // namespace
