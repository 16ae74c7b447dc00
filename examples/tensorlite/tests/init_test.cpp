// Tests for the seeded generator and the Xavier / Kaiming initialisers (init.h).
#include <cmath>
#include <ostream>
#include <string>
#include <tuple>

#include "test_util.h"

namespace {

namespace tl = tensorlite;
using tl::DType;
using tl::FanMode;
using tl::Generator;
using tl::Nonlinearity;
using tl::Shape;
using tltest::Tensor;

struct Moments {
  double mean;
  double variance;
  double max_abs;
};

Moments moments(const Tensor& t) {
  const std::vector<double> v = t.to_vector();
  double mean = 0.0;
  double max_abs = 0.0;
  for (const double x : v) {
    mean += x;
    max_abs = std::max(max_abs, std::abs(x));
  }
  mean /= static_cast<double>(v.size());
  double var = 0.0;
  for (const double x : v) {
    var += (x - mean) * (x - mean);
  }
  return {mean, var / static_cast<double>(v.size()), max_abs};
}

TEST(Generator, SameSeedSameSequence) {
  Generator a(42);
  Generator b(42);
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(a.next_u64(), b.next_u64());
  }
}

TEST(Generator, DifferentSeedsDiffer) {
  Generator a(1);
  Generator b(2);
  EXPECT_NE(a.next_u64(), b.next_u64());
}

TEST(Generator, KnownFirstOutput) {
  // SplitMix64's published first output for seed 0.
  Generator g(0);
  EXPECT_EQ(g.next_u64(), 0xe220a8397b1dcdafULL);
}

TEST(Generator, UniformIsInUnitInterval) {
  Generator g(7);
  double total = 0.0;
  for (int i = 0; i < 10000; ++i) {
    const double u = g.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    total += u;
  }
  EXPECT_NEAR(total / 10000.0, 0.5, 0.01);
}

TEST(Generator, NormalHasUnitMoments) {
  Generator g(9);
  const Moments m = moments(tl::normal({20000}, 0.0, 1.0, g, DType::Float64));
  EXPECT_NEAR(m.mean, 0.0, 0.03);
  EXPECT_NEAR(m.variance, 1.0, 0.03);
}

// --- fans and gains ----------------------------------------------------------------------

using FanCase = std::tuple<Shape, std::int64_t, std::int64_t>;  // shape, fan_in, fan_out

class ComputeFans : public ::testing::TestWithParam<FanCase> {};

TEST_P(ComputeFans, FollowsOutInReceptiveLayout) {
  const auto& [shape, fan_in, fan_out] = GetParam();
  const tl::Fans fans = tl::compute_fans(shape);
  EXPECT_EQ(fans.fan_in, fan_in);
  EXPECT_EQ(fans.fan_out, fan_out);
}

INSTANTIATE_TEST_SUITE_P(Layers, ComputeFans,
                         ::testing::Values(FanCase{{8, 32}, 32, 8}, FanCase{{16, 16}, 16, 16},
                                           FanCase{{16, 3, 3, 3}, 27, 144},
                                           FanCase{{4, 4, 5, 5}, 100, 100}));

TEST(ComputeFansErrors, VectorsHaveNoFans) {
  EXPECT_THROW(tl::compute_fans({5}), tl::ShapeError);
}

using GainCase = std::tuple<Nonlinearity, double>;

class CalculateGain : public ::testing::TestWithParam<GainCase> {};

TEST_P(CalculateGain, MatchesRecommendedValues) {
  const auto [nonlinearity, expected] = GetParam();
  EXPECT_NEAR(tl::calculate_gain(nonlinearity), expected, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Values, CalculateGain,
                         ::testing::Values(GainCase{Nonlinearity::Linear, 1.0},
                                           GainCase{Nonlinearity::Sigmoid, 1.0},
                                           GainCase{Nonlinearity::Tanh, 5.0 / 3.0},
                                           GainCase{Nonlinearity::Relu, std::sqrt(2.0)},
                                           GainCase{Nonlinearity::LeakyRelu,
                                                    std::sqrt(2.0 / (1.0 + 1e-4))}));

// --- initialisers ------------------------------------------------------------------------

TEST(XavierUniform, BoundAndVariance) {
  Generator g(11);
  const Tensor w = tl::xavier_uniform({64, 192}, g, 1.0, DType::Float64);
  const double bound = std::sqrt(6.0 / 256.0);
  const Moments m = moments(w);
  EXPECT_LE(m.max_abs, bound);
  EXPECT_GT(m.max_abs, 0.95 * bound);
  EXPECT_NEAR(m.variance, bound * bound / 3.0, 0.05 * bound * bound / 3.0);
}

TEST(XavierNormal, StandardDeviation) {
  Generator g(12);
  const Moments m = moments(tl::xavier_normal({32, 3, 5, 5}, g, 2.0, DType::Float64));
  const double std = 2.0 * std::sqrt(2.0 / (75.0 + 800.0));
  EXPECT_NEAR(std::sqrt(m.variance), std, 0.05 * std);
}

struct KaimingCase {
  const char* name;
  Shape shape;
  FanMode mode;
  double fan;  // by hand
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const KaimingCase& c) { return os << c.name; }

class Kaiming : public ::testing::TestWithParam<KaimingCase> {};

TEST_P(Kaiming, UniformBoundUsesTheChosenFan) {
  const KaimingCase& c = GetParam();
  Generator g(13);
  const Tensor w = tl::kaiming_uniform(c.shape, g, c.mode, Nonlinearity::Relu, DType::Float64);
  const double bound = std::sqrt(2.0) * std::sqrt(3.0 / c.fan);
  const Moments m = moments(w);
  EXPECT_LE(m.max_abs, bound);
  EXPECT_GT(m.max_abs, 0.9 * bound);
}

TEST_P(Kaiming, NormalVarianceIsTwoOverFan) {
  const KaimingCase& c = GetParam();
  Generator g(14);
  const Moments m = moments(tl::kaiming_normal(c.shape, g, c.mode, Nonlinearity::Relu,
                                               DType::Float64));
  EXPECT_NEAR(m.variance, 2.0 / c.fan, 0.1 * 2.0 / c.fan);
}

INSTANTIATE_TEST_SUITE_P(
    Layers, Kaiming,
    ::testing::Values(KaimingCase{"linear_fan_in", {64, 256}, FanMode::FanIn, 256},
                      KaimingCase{"linear_fan_out", {64, 256}, FanMode::FanOut, 64},
                      KaimingCase{"square_fan_in", {128, 128}, FanMode::FanIn, 128},
                      KaimingCase{"conv_fan_in", {32, 16, 3, 3}, FanMode::FanIn, 144}),
    [](const ::testing::TestParamInfo<KaimingCase>& info) {
      return std::string(info.param.name);
    });

TEST(Init, SameSeedSameWeights) {
  Generator a(99);
  Generator b(99);
  EXPECT_EQ(tl::kaiming_uniform({4, 6}, a).to_vector(), tl::kaiming_uniform({4, 6}, b).to_vector());
}

TEST(Init, RequestedDTypeIsUsed) {
  Generator g(5);
  EXPECT_EQ(tl::xavier_uniform({3, 3}, g, 1.0, DType::Float16).dtype(), DType::Float16);
}

TEST(InitErrors, BadArgumentsThrow) {
  Generator g(1);
  EXPECT_THROW(tl::uniform({3}, 1.0, 0.0, g), tl::ArgumentError);
  EXPECT_THROW(tl::normal({3}, 0.0, -1.0, g), tl::ArgumentError);
  EXPECT_THROW(tl::uniform({3}, 0.0, 1.0, g, DType::Int32), tl::DTypeError);
  EXPECT_THROW(tl::kaiming_uniform({0, 3}, g, FanMode::FanOut), tl::ArgumentError);
}

}  // namespace
