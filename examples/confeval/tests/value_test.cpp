// Tests for values: types, construction, strict equality and display text (value.h).
#include <cstdint>
#include <limits>
#include <string>

#include "test_util.h"

namespace {

using confeval::Type;
using confeval::Value;

TEST(Value, DefaultIsIntZero) {
  const Value v;
  EXPECT_TRUE(v.is_int());
  EXPECT_EQ(v.as_int(), 0);
}

TEST(Value, TypeNames) {
  EXPECT_EQ(confeval::type_name(Type::Int), "int");
  EXPECT_EQ(confeval::type_name(Type::Float), "float");
  EXPECT_EQ(confeval::type_name(Type::Bool), "bool");
  EXPECT_EQ(confeval::type_name(Type::String), "string");
  EXPECT_EQ(confeval::type_name(Type::Array), "array");
}

TEST(Value, StringLiteralIsAStringNotABool) {
  const Value v("text");
  EXPECT_TRUE(v.is_string());
  EXPECT_EQ(v.as_string(), "text");
}

TEST(Value, StrictEqualityDistinguishesIntFromFloat) {
  EXPECT_EQ(Value(1), Value(std::int64_t{1}));
  EXPECT_NE(Value(1), Value(1.0));
  EXPECT_NE(Value(true), Value(1));
  EXPECT_EQ(Value(Value::Array{1, "a"}), Value(Value::Array{1, "a"}));
  EXPECT_NE(Value(Value::Array{1}), Value(Value::Array{1, 1}));
}

TEST(Value, AsNumberPromotesInts) {
  EXPECT_DOUBLE_EQ(Value(3).as_number(), 3.0);
  EXPECT_DOUBLE_EQ(Value(2.5).as_number(), 2.5);
  EXPECT_TRUE(Value(3).is_number());
  EXPECT_FALSE(Value("3").is_number());
}

TEST(Value, WrongAccessorThrows) {
  EXPECT_THROW(Value(1).as_string(), std::bad_variant_access);
  EXPECT_THROW(Value("a").as_int(), std::bad_variant_access);
}

// Every integer type but bool must become an Int holding the same number.
template <typename T>
class IntegralValue : public ::testing::Test {};

using IntegralTypes = ::testing::Types<short, int, long, long long, unsigned, std::int64_t,
                                       std::uint8_t>;
TYPED_TEST_SUITE(IntegralValue, IntegralTypes);

TYPED_TEST(IntegralValue, BecomesInt) {
  const Value v(static_cast<TypeParam>(42));
  EXPECT_TRUE(v.is_int());
  EXPECT_EQ(v.as_int(), 42);
}

TYPED_TEST(IntegralValue, KeepsTheLargestValue) {
  const auto largest = std::numeric_limits<TypeParam>::max();
  EXPECT_EQ(Value(largest).as_int(), static_cast<std::int64_t>(largest));
}

// --- display text ------------------------------------------------------------------------

struct FloatCase {
  double value;
  const char* text;
};

class FormatFloat : public ::testing::TestWithParam<FloatCase> {};

TEST_P(FormatFloat, IsShortestAndReadsBackAsFloat) {
  EXPECT_EQ(confeval::format_float(GetParam().value), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(Cases, FormatFloat,
                         ::testing::Values(FloatCase{1.0, "1.0"}, FloatCase{0.1, "0.1"},
                                           FloatCase{-2.5, "-2.5"}, FloatCase{1e300, "1e+300"},
                                           FloatCase{0.1 + 0.2, "0.30000000000000004"},
                                           FloatCase{123456789.0, "123456789.0"}));

TEST(ToDisplay, QuotesStringsAndBracketsArrays) {
  EXPECT_EQ(confeval::to_display(Value(7)), "7");
  EXPECT_EQ(confeval::to_display(Value(false)), "false");
  EXPECT_EQ(confeval::to_display(Value("hi")), "\"hi\"");
  EXPECT_EQ(confeval::to_display(Value(Value::Array{1, 2.0, "x"})), "[1, 2.0, \"x\"]");
  EXPECT_EQ(confeval::to_display(Value(Value::Array{})), "[]");
}

TEST(ToText, StringsAreUnquoted) {
  EXPECT_EQ(confeval::to_text(Value("hi")), "hi");
  EXPECT_EQ(confeval::to_text(Value(1.5)), "1.5");
  EXPECT_EQ(confeval::to_text(Value(Value::Array{"a"})), "[\"a\"]");
}

}  // namespace
