// Tests for operator semantics: promotion, overflow, division, comparison, equality and
// indexing (operators.h), mostly through whole expressions.
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>

#include "test_util.h"

namespace {

using confeval::BinaryOp;
using confeval::EvalError;
using confeval::SourceLocation;
using confeval::Value;
using cetest::capture;
using cetest::eval;
using cetest::position;

struct EvalCase {
  const char* expression;
  Value expected;
};

void PrintTo(const EvalCase& c, std::ostream* os) { *os << c.expression; }

class Evaluates : public ::testing::TestWithParam<EvalCase> {};

TEST_P(Evaluates, ToTheExpectedValue) {
  EXPECT_EQ(eval(GetParam().expression), GetParam().expected) << GetParam().expression;
}

INSTANTIATE_TEST_SUITE_P(
    IntArithmetic, Evaluates,
    ::testing::Values(EvalCase{"2 + 3", 5}, EvalCase{"2 - 5", -3}, EvalCase{"6 * 7", 42},
                      EvalCase{"7 / 2", 3}, EvalCase{"-7 / 2", -3}, EvalCase{"7 % 3", 1},
                      EvalCase{"-7 % 3", -1}, EvalCase{"7 % -3", 1}, EvalCase{"1 + 2 * 3", 7},
                      EvalCase{"10 - 4 - 3", 3}, EvalCase{"2 * 3 + 4 * 5", 26},
                      EvalCase{"100 / 10 / 5", 2}, EvalCase{"(1 + 2) * 3", 9}));

INSTANTIATE_TEST_SUITE_P(
    Powers, Evaluates,
    ::testing::Values(EvalCase{"2 ** 10", 1024}, EvalCase{"3 ** 0", 1}, EvalCase{"0 ** 0", 1},
                      EvalCase{"(-2) ** 3", -8}, EvalCase{"-2 ** 2", -4},
                      EvalCase{"2 ** 3 ** 2", 512}, EvalCase{"2 ** -1", 0.5},
                      EvalCase{"4.0 ** 0.5", 2.0}, EvalCase{"2 ** 62", std::int64_t{1} << 62}));

INSTANTIATE_TEST_SUITE_P(
    FloatArithmetic, Evaluates,
    ::testing::Values(EvalCase{"1 + 0.5", 1.5}, EvalCase{"0.5 * 4", 2.0}, EvalCase{"7 / 2.0", 3.5},
                      EvalCase{"1.5 - 2", -0.5}, EvalCase{"-1.5", -1.5}));

INSTANTIATE_TEST_SUITE_P(
    Concatenation, Evaluates,
    ::testing::Values(EvalCase{"'ab' + \"cd\"", "abcd"},
                      EvalCase{"[1] + [2, 'x']", Value(Value::Array{1, 2, "x"})},
                      EvalCase{"[] + []", Value(Value::Array{})}));

INSTANTIATE_TEST_SUITE_P(
    Comparison, Evaluates,
    ::testing::Values(EvalCase{"1 < 2", true}, EvalCase{"2 < 2", false}, EvalCase{"2 <= 2", true},
                      EvalCase{"3 <= 2", false}, EvalCase{"1 <= 1.5", true},
                      EvalCase{"2 > 1", true}, EvalCase{"2 >= 2", true},
                      EvalCase{"1.5 >= 2", false}, EvalCase{"'abc' < 'abd'", true},
                      EvalCase{"'b' <= 'b'", true}, EvalCase{"'Z' < 'a'", true}));

INSTANTIATE_TEST_SUITE_P(
    Equality, Evaluates,
    ::testing::Values(EvalCase{"1 == 1.0", true}, EvalCase{"1 != 2", true},
                      EvalCase{"'a' == 'a'", true}, EvalCase{"'1' == 1", false},
                      EvalCase{"true == 1", false}, EvalCase{"[1, 2] == [1.0, 2]", true},
                      EvalCase{"[1] == [1, 2]", false}, EvalCase{"[] != []", false}));

INSTANTIATE_TEST_SUITE_P(
    Logic, Evaluates,
    ::testing::Values(EvalCase{"true && false", false}, EvalCase{"true && true", true},
                      EvalCase{"false || true", true}, EvalCase{"false || false", false},
                      EvalCase{"!true", false}, EvalCase{"!(1 > 2)", true},
                      EvalCase{"1 < 2 && 2 < 3", true}, EvalCase{"true ? 1 : 2", 1},
                      EvalCase{"1 > 2 ? 'a' : 'b'", "b"}));

INSTANTIATE_TEST_SUITE_P(
    Indexing, Evaluates,
    ::testing::Values(EvalCase{"[10, 20, 30][0]", 10}, EvalCase{"[10, 20, 30][2]", 30},
                      EvalCase{"[10, 20, 30][-1]", 30}, EvalCase{"[10, 20, 30][-3]", 10},
                      EvalCase{"'hello'[1]", "e"}, EvalCase{"[[1, 2], [3]][0][1]", 2}));

// --- errors ------------------------------------------------------------------------------

struct ErrorCase {
  const char* expression;
  const char* message;
};

class EvalFails : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(EvalFails, WithMessage) {
  const EvalError e = capture<EvalError>([] { eval(GetParam().expression); });
  EXPECT_EQ(e.message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EvalFails,
    ::testing::Values(ErrorCase{"1 / 0", "division by zero"},
                      ErrorCase{"1.0 / 0", "division by zero"},
                      ErrorCase{"5 % 0", "modulo by zero"},
                      ErrorCase{"5.5 % 2", "cannot apply '%' to float and int"},
                      ErrorCase{"'a' - 'b'", "cannot apply '-' to string and string"},
                      ErrorCase{"1 + 'a'", "cannot apply '+' to int and string"},
                      ErrorCase{"[1] * 2", "cannot apply '*' to array and int"},
                      ErrorCase{"'a' < 1", "cannot apply '<' to string and int"},
                      ErrorCase{"true > false", "cannot apply '>' to bool and bool"},
                      ErrorCase{"9223372036854775807 + 1", "integer overflow in '+'"},
                      ErrorCase{"-9223372036854775807 - 2", "integer overflow in '-'"},
                      ErrorCase{"4294967296 * 4294967296", "integer overflow in '*'"},
                      ErrorCase{"2 ** 63", "integer overflow in '**'"},
                      ErrorCase{"(-9223372036854775807 - 1) / -1", "integer overflow in '/'"},
                      ErrorCase{"1e308 * 10", "'*' gives a non-finite result"},
                      ErrorCase{"(-8.0) ** 0.5", "'**' gives a non-finite result"},
                      ErrorCase{"-'a'", "cannot apply '-' to string"},
                      ErrorCase{"!1", "cannot apply '!' to int"},
                      ErrorCase{"1 && true", "operand of '&&' must be a bool, not int"},
                      ErrorCase{"false || 'x'", "operand of '||' must be a bool, not string"},
                      ErrorCase{"1 ? 2 : 3", "the condition of '?:' must be a bool, not int"},
                      ErrorCase{"[1, 2][2]", "index 2 is out of range for array of length 2"},
                      ErrorCase{"[1, 2][-3]", "index -3 is out of range for array of length 2"},
                      ErrorCase{"[1][0.5]", "index must be an int, not float"},
                      ErrorCase{"5[0]", "cannot index a value of type int"}));

TEST(Operators, MostNegativeIntModuloMinusOneIsZero) {
  EXPECT_EQ(eval("(-9223372036854775807 - 1) % -1"), Value(0));
}

TEST(Operators, NegatingTheMostNegativeIntOverflows) {
  EXPECT_THROW(eval("-(-9223372036854775807 - 1)"), EvalError);
}

TEST(Operators, ErrorIsLocatedAtTheOperator) {
  const EvalError e = capture<EvalError>([] { confeval::parse_config("a = 1\nb = a +  'x'"); });
  EXPECT_EQ(position(e.where()), "2:7");
}

TEST(Operators, AndOrAreNotApplyBinary) {
  EXPECT_THROW(confeval::apply_binary(BinaryOp::And, Value(true), Value(true), {}),
               std::logic_error);
}

TEST(LooselyEqual, NumbersAcrossTypes) {
  EXPECT_TRUE(confeval::loosely_equal(Value(2), Value(2.0)));
  EXPECT_FALSE(confeval::loosely_equal(Value(2), Value(2.5)));
  EXPECT_FALSE(confeval::loosely_equal(Value("2"), Value(2)));
  EXPECT_TRUE(confeval::loosely_equal(Value(Value::Array{1, Value::Array{2}}),
                                      Value(Value::Array{1.0, Value::Array{2.0}})));
}

TEST(LooselyEqual, LargeIntsCompareExactly) {
  // As doubles these two are equal; as ints they are not.
  EXPECT_FALSE(confeval::loosely_equal(Value(std::int64_t{9007199254740993}),
                                       Value(std::int64_t{9007199254740992})));
}

TEST(IndexValue, StringIndexGivesOneCharacter) {
  EXPECT_EQ(confeval::index_value(Value("xyz"), Value(-1), SourceLocation{}), Value("z"));
}

}  // namespace
