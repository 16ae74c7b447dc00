// Tests for dtype properties, type promotion and float16 emulation (dtype.h).
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <tuple>

#include "test_util.h"

namespace {

using tensorlite::DType;
using tensorlite::Half;
using tltest::Tensor;

TEST(DType, SizesMatchTheCxxTypes) {
  EXPECT_EQ(tensorlite::dtype_size(DType::Float16), 2u);
  EXPECT_EQ(tensorlite::dtype_size(DType::Float32), 4u);
  EXPECT_EQ(tensorlite::dtype_size(DType::Float64), 8u);
  EXPECT_EQ(tensorlite::dtype_size(DType::Int32), 4u);
  EXPECT_EQ(tensorlite::dtype_size(DType::Int64), 8u);
}

TEST(DType, Names) {
  EXPECT_EQ(tensorlite::dtype_name(DType::Float16), "float16");
  EXPECT_EQ(tensorlite::dtype_name(DType::Float64), "float64");
  EXPECT_EQ(tensorlite::dtype_name(DType::Int32), "int32");
}

TEST(DType, FloatingCategory) {
  EXPECT_TRUE(tensorlite::is_floating(DType::Float16));
  EXPECT_TRUE(tensorlite::is_floating(DType::Float32));
  EXPECT_TRUE(tensorlite::is_floating(DType::Float64));
  EXPECT_FALSE(tensorlite::is_floating(DType::Int32));
  EXPECT_FALSE(tensorlite::is_floating(DType::Int64));
}

// --- promotion ---------------------------------------------------------------------------

using PromotionCase = std::tuple<DType, DType, DType>;

class PromoteTypes : public ::testing::TestWithParam<PromotionCase> {};

TEST_P(PromoteTypes, IsCommutativeAndMatchesTable) {
  const auto [a, b, expected] = GetParam();
  EXPECT_EQ(tensorlite::promote_types(a, b), expected);
  EXPECT_EQ(tensorlite::promote_types(b, a), expected);
}

INSTANTIATE_TEST_SUITE_P(
    Table, PromoteTypes,
    ::testing::Values(PromotionCase{DType::Float32, DType::Float32, DType::Float32},
                      PromotionCase{DType::Float16, DType::Float32, DType::Float32},
                      PromotionCase{DType::Float32, DType::Float64, DType::Float64},
                      PromotionCase{DType::Float16, DType::Float64, DType::Float64},
                      PromotionCase{DType::Int32, DType::Int64, DType::Int64},
                      PromotionCase{DType::Int32, DType::Float16, DType::Float16},
                      PromotionCase{DType::Int64, DType::Float32, DType::Float32},
                      PromotionCase{DType::Int64, DType::Float64, DType::Float64}),
    [](const ::testing::TestParamInfo<PromotionCase>& info) {
      return std::string(tensorlite::dtype_name(std::get<0>(info.param))) + "_" +
             std::string(tensorlite::dtype_name(std::get<1>(info.param)));
    });

// --- float16 -----------------------------------------------------------------------------

struct HalfCase {
  const char* name;
  float value;
  std::uint16_t bits;
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const HalfCase& c) { return os << c.name; }

class HalfExact : public ::testing::TestWithParam<HalfCase> {};

TEST_P(HalfExact, EncodesAndDecodes) {
  const HalfCase& c = GetParam();
  EXPECT_EQ(tensorlite::float_to_half_bits(c.value), c.bits);
  EXPECT_EQ(tensorlite::half_bits_to_float(c.bits), c.value);
}

INSTANTIATE_TEST_SUITE_P(
    Values, HalfExact,
    ::testing::Values(HalfCase{"zero", 0.0f, 0x0000}, HalfCase{"one", 1.0f, 0x3c00},
                      HalfCase{"minus_two", -2.0f, 0xc000}, HalfCase{"half", 0.5f, 0x3800},
                      HalfCase{"max", 65504.0f, 0x7bff},
                      HalfCase{"min_normal", 6.103515625e-05f, 0x0400},
                      HalfCase{"min_subnormal", 5.9604644775390625e-08f, 0x0001},
                      HalfCase{"max_subnormal", 6.097555160522461e-05f, 0x03ff},
                      HalfCase{"inf", std::numeric_limits<float>::infinity(), 0x7c00},
                      HalfCase{"minus_inf", -std::numeric_limits<float>::infinity(), 0xfc00}),
    [](const ::testing::TestParamInfo<HalfCase>& info) { return std::string(info.param.name); });

TEST(Half, NegativeZeroKeepsItsSign) {
  EXPECT_EQ(tensorlite::float_to_half_bits(-0.0f), 0x8000);
  EXPECT_TRUE(std::signbit(tensorlite::half_bits_to_float(0x8000)));
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and the next half (1 + 2^-10): ties go to even.
  EXPECT_EQ(tensorlite::float_to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(tensorlite::float_to_half_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(tensorlite::float_to_half_bits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)),
            0x3c01);
  EXPECT_EQ(tensorlite::float_to_half_bits(0.1f), 0x2e66);
  EXPECT_EQ(tensorlite::float_to_half_bits(1.0f / 3.0f), 0x3555);
}

TEST(Half, OverflowsToInfinity) {
  EXPECT_EQ(tensorlite::float_to_half_bits(65519.0f), 0x7bff);  // still rounds down to max
  EXPECT_EQ(tensorlite::float_to_half_bits(65520.0f), 0x7c00);  // halfway rounds up to inf
  EXPECT_EQ(tensorlite::float_to_half_bits(1e10f), 0x7c00);
  EXPECT_EQ(tensorlite::float_to_half_bits(-1e10f), 0xfc00);
}

TEST(Half, UnderflowsThroughSubnormals) {
  EXPECT_EQ(tensorlite::float_to_half_bits(std::ldexp(1.0f, -26)), 0x0000);
  EXPECT_EQ(tensorlite::float_to_half_bits(std::ldexp(1.0f, -25)), 0x0000);  // tie to even 0
  EXPECT_EQ(tensorlite::float_to_half_bits(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(tensorlite::float_to_half_bits(std::ldexp(3.0f, -24)), 0x0003);
  EXPECT_EQ(tensorlite::float_to_half_bits(1e-30f), 0x0000);
}

TEST(Half, NaNStaysNaN) {
  const std::uint16_t bits = tensorlite::float_to_half_bits(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(bits & 0x7c00, 0x7c00);
  EXPECT_NE(bits & 0x03ff, 0);
  EXPECT_TRUE(std::isnan(tensorlite::half_bits_to_float(bits)));
}

TEST(Half, EveryFiniteBitPatternRoundTrips) {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const auto h = static_cast<std::uint16_t>(bits);
    if ((h & 0x7c00) == 0x7c00) {
      continue;  // inf and NaN are covered above
    }
    ASSERT_EQ(tensorlite::float_to_half_bits(tensorlite::half_bits_to_float(h)), h) << bits;
  }
}

TEST(Half, StructConvertsBothWays) {
  const Half h(2.5f);
  EXPECT_EQ(h.bits, 0x4100);
  EXPECT_EQ(static_cast<float>(h), 2.5f);
  EXPECT_EQ(static_cast<float>(Half::from_bits(0x3c00)), 1.0f);
}

// --- dtype round trips through tensors ---------------------------------------------------

template <typename T>
class DTypeRoundTrip : public ::testing::Test {};

using AllElementTypes = ::testing::Types<Half, float, double, std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(DTypeRoundTrip, AllElementTypes);

TYPED_TEST(DTypeRoundTrip, SmallIntegersSurviveEveryDType) {
  constexpr DType dtype = tensorlite::dtype_of<TypeParam>;
  const std::vector<double> values = {-3, -1, 0, 1, 2, 100, 2047};
  const Tensor t = Tensor::from_vector(values, {7}, dtype);
  EXPECT_EQ(t.dtype(), dtype);
  EXPECT_EQ(t.to_vector(), values);
}

TYPED_TEST(DTypeRoundTrip, ThroughFloat64AndBack) {
  constexpr DType dtype = tensorlite::dtype_of<TypeParam>;
  const Tensor t = Tensor::from_vector({-7, 0, 5, 42}, {2, 2}, dtype);
  const Tensor wide = t.to(DType::Float64);
  EXPECT_EQ(wide.dtype(), DType::Float64);
  const Tensor back = wide.to(dtype);
  EXPECT_EQ(back.dtype(), dtype);
  EXPECT_EQ(back.to_vector(), t.to_vector());
}

TYPED_TEST(DTypeRoundTrip, TypedPointerMatchesDType) {
  constexpr DType dtype = tensorlite::dtype_of<TypeParam>;
  Tensor t = Tensor::from_vector({1, 2, 3}, {3}, dtype);
  TypeParam* p = t.data<TypeParam>();
  EXPECT_EQ(tensorlite::to_double(p[2]), 3.0);
  p[0] = tensorlite::from_double<TypeParam>(9.0);
  EXPECT_EQ(t.at({0}), 9.0);
}

TEST(DTypeConversion, FloatToIntTruncatesTowardZero) {
  const Tensor t = Tensor::from_vector({-1.7, -0.2, 0.9, 2.5}, {4}, DType::Float64);
  EXPECT_EQ(t.to(DType::Int32).to_vector(), (std::vector<double>{-1, 0, 0, 2}));
}

TEST(DTypeConversion, Float64ToFloat16Rounds) {
  const Tensor t = Tensor::from_vector({0.1, 1000.3, 70000.0}, {3}, DType::Float64);
  const std::vector<double> h = t.to(DType::Float16).to_vector();
  EXPECT_DOUBLE_EQ(h[0], static_cast<double>(tensorlite::half_bits_to_float(0x2e66)));
  EXPECT_DOUBLE_EQ(h[1], 1000.5);  // the nearest half
  EXPECT_TRUE(std::isinf(h[2]));
}

}  // namespace
