// Tests for the builtin functions: results, argument checking and messages (builtins.h).
#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using confeval::EvalError;
using confeval::Value;
using cetest::capture;
using cetest::eval;
using cetest::position;

struct CallCase {
  const char* expression;
  Value expected;
};

void PrintTo(const CallCase& c, std::ostream* os) { *os << c.expression; }

class Builtin : public ::testing::TestWithParam<CallCase> {};

TEST_P(Builtin, Returns) {
  EXPECT_EQ(eval(GetParam().expression), GetParam().expected) << GetParam().expression;
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, Builtin,
    ::testing::Values(CallCase{"len('hello')", 5}, CallCase{"len('')", 0},
                      CallCase{"len([1, [2, 3]])", 2}));

INSTANTIATE_TEST_SUITE_P(
    Extremes, Builtin,
    ::testing::Values(CallCase{"min(3, 1, 2)", 1}, CallCase{"max(3, 1, 2)", 3},
                      CallCase{"min(2, 1.5)", 1.5}, CallCase{"max(2, 1.5)", 2},
                      CallCase{"min([4, 8, -1])", -1}, CallCase{"max('pear', 'apple')", "pear"},
                      CallCase{"min(7)", 7}, CallCase{"max(1, 1.0)", 1}));

INSTANTIATE_TEST_SUITE_P(
    Numbers, Builtin,
    ::testing::Values(CallCase{"abs(-4)", 4}, CallCase{"abs(4)", 4}, CallCase{"abs(-2.5)", 2.5},
                      CallCase{"clamp(5, 0, 10)", 5}, CallCase{"clamp(-5, 0, 10)", 0},
                      CallCase{"clamp(15, 0, 10)", 10}, CallCase{"clamp(0.5, 0, 1)", 0.5}));

INSTANTIATE_TEST_SUITE_P(
    Conversions, Builtin,
    ::testing::Values(CallCase{"int(2.9)", 2}, CallCase{"int(-2.9)", -2}, CallCase{"int(true)", 1},
                      CallCase{"int('-17')", -17}, CallCase{"int(5)", 5},
                      CallCase{"float(2)", 2.0}, CallCase{"float('2.5')", 2.5},
                      CallCase{"str(12)", "12"}, CallCase{"str(0.5)", "0.5"},
                      CallCase{"str('s')", "s"}, CallCase{"str(false)", "false"}));

INSTANTIATE_TEST_SUITE_P(
    Strings, Builtin,
    ::testing::Values(CallCase{"upper('MiXed 1')", "MIXED 1"},
                      CallCase{"lower('MiXed 1')", "mixed 1"},
                      CallCase{"join(['a', 1, 2.5], '-')", "a-1-2.5"},
                      CallCase{"join([], ',')", ""}, CallCase{"join(['solo'], ', ')", "solo"},
                      CallCase{"contains([1, 2, 3], 2.0)", true},
                      CallCase{"contains(['a'], 'b')", false},
                      CallCase{"contains('haystack', 'st')", true}));

struct ErrorCase {
  const char* expression;
  const char* message;
};

class BuiltinFails : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(BuiltinFails, WithMessage) {
  const EvalError e = capture<EvalError>([] { eval(GetParam().expression); });
  EXPECT_EQ(e.message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BuiltinFails,
    ::testing::Values(
        ErrorCase{"nope(1)", "unknown function 'nope'"},
        ErrorCase{"len()", "len takes 1 argument, got 0"},
        ErrorCase{"len(1, 2)", "len takes 1 argument, got 2"},
        ErrorCase{"clamp(1, 2)", "clamp takes 3 arguments, got 2"},
        ErrorCase{"min()", "min takes at least 1 argument, got 0"},
        ErrorCase{"min([])", "min: needs at least one value"},
        ErrorCase{"len(5)", "len: argument 1 must be a string or an array, not int"},
        ErrorCase{"max(1, true)", "max: argument 2 must be a number or a string, not bool"},
        ErrorCase{"min(1, 'a')", "cannot apply '<' to string and int"},
        ErrorCase{"int('12x')", "int: \"12x\" is not a decimal integer"},
        ErrorCase{"int('')", "int: \"\" is not a decimal integer"},
        ErrorCase{"int(1e19)", "int: 1e+19 does not fit an int"},
        ErrorCase{"int([1])", "int: cannot convert an array to int"},
        ErrorCase{"float('x')", "float: \"x\" is not a decimal number"},
        ErrorCase{"join('ab', ',')", "join: argument 1 must be an array, not string"},
        ErrorCase{"join([1], 2)", "join: argument 2 must be a string, not int"},
        ErrorCase{"contains('ab', 1)", "contains: argument 2 must be a string, not int"},
        ErrorCase{"clamp(1, 5, 0)", "clamp: lower bound 5 is above upper bound 0"},
        ErrorCase{"abs('x')", "abs: argument 1 must be a number, not string"},
        ErrorCase{"abs(-9223372036854775807 - 1)", "integer overflow in '-'"},
        ErrorCase{"upper(1)", "upper: argument 1 must be a string, not int"}));

TEST(Builtins, NamesAreSortedAndRecognised) {
  const std::vector<std::string_view> names = confeval::builtin_names();
  ASSERT_EQ(names.size(), 12u);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const std::string_view name : names) {
    EXPECT_TRUE(confeval::is_builtin(name)) << name;
  }
  EXPECT_FALSE(confeval::is_builtin("print"));
}

TEST(Builtins, ErrorIsLocatedAtTheFunctionName) {
  const EvalError e = capture<EvalError>([] { confeval::parse_config("a = 1 + len(2)"); });
  EXPECT_EQ(position(e.where()), "1:9");
}

TEST(Builtins, ArgumentsAreExpressions) {
  const confeval::Config c = confeval::parse_config("xs = [3, 9]\ny = max(xs[0] * 2, len(xs)) + 1");
  EXPECT_EQ(c.get_int("y"), 7);
}

}  // namespace
