// Tests for expression parsing: precedence, associativity, postfix forms and syntax errors,
// read through the fully parenthesised to_source() rendering (expression_parser.h).
#include <string>

#include "test_util.h"

namespace {

using confeval::BinaryOp;
using confeval::Expr;
using confeval::ExprPtr;
using confeval::SyntaxError;
using confeval::parse_expression;
using cetest::capture;
using cetest::position;

std::string parsed(std::string_view text) { return confeval::to_source(*parse_expression(text)); }

struct ParseCase {
  const char* text;
  const char* tree;
};

class Precedence : public ::testing::TestWithParam<ParseCase> {};

TEST_P(Precedence, GroupsAsDocumented) { EXPECT_EQ(parsed(GetParam().text), GetParam().tree); }

INSTANTIATE_TEST_SUITE_P(
    Arithmetic, Precedence,
    ::testing::Values(ParseCase{"1 + 2 * 3", "(1 + (2 * 3))"},
                      ParseCase{"1 * 2 + 3", "((1 * 2) + 3)"},
                      ParseCase{"8 / 4 % 3 - 1", "(((8 / 4) % 3) - 1)"},
                      ParseCase{"1 - 2 - 3", "((1 - 2) - 3)"},
                      ParseCase{"2 ** 3 ** 2", "(2 ** (3 ** 2))"},
                      ParseCase{"2 * 3 ** 2", "(2 * (3 ** 2))"},
                      ParseCase{"(1 + 2) * 3", "((1 + 2) * 3)"}));

INSTANTIATE_TEST_SUITE_P(
    Unary, Precedence,
    ::testing::Values(ParseCase{"-2 ** 2", "(-(2 ** 2))"},
                      ParseCase{"2 ** -1", "(2 ** (-1))"},
                      ParseCase{"-a * b", "((-a) * b)"},
                      ParseCase{"!a && b", "((!a) && b)"},
                      ParseCase{"--1", "(-(-1))"}));

INSTANTIATE_TEST_SUITE_P(
    Logic, Precedence,
    ::testing::Values(ParseCase{"a || b && c", "(a || (b && c))"},
                      ParseCase{"a && b || c", "((a && b) || c)"},
                      ParseCase{"a == b && c != d", "((a == b) && (c != d))"},
                      ParseCase{"a < b == c > d", "((a < b) == (c > d))"},
                      ParseCase{"x + 1 > y * 2", "((x + 1) > (y * 2))"},
                      ParseCase{"a ? b : c ? d : e", "(a ? b : (c ? d : e))"},
                      ParseCase{"a || b ? 1 + 2 : 3", "((a || b) ? (1 + 2) : 3)"}));

INSTANTIATE_TEST_SUITE_P(
    Postfix, Precedence,
    ::testing::Values(ParseCase{"xs[0]", "xs[0]"}, ParseCase{"m[1][2]", "m[1][2]"},
                      ParseCase{"-xs[i + 1]", "(-xs[(i + 1)])"},
                      ParseCase{"[1, 2][0] * 3", "([1, 2][0] * 3)"},
                      ParseCase{"max(a, b + 1)", "max(a, (b + 1))"},
                      ParseCase{"len([])", "len([])"},
                      ParseCase{"${server.port} + 1", "(server.port + 1)"}));

TEST(ExpressionParser, ReferenceKeepsTheWholeDottedPath) {
  const ExprPtr e = parse_expression("a.b.c");
  EXPECT_EQ(e->kind, Expr::Kind::Reference);
  EXPECT_EQ(e->name, "a.b.c");
}

TEST(ExpressionParser, LiteralValues) {
  EXPECT_EQ(parse_expression("12")->value, confeval::Value(12));
  EXPECT_EQ(parse_expression("1.5")->value, confeval::Value(1.5));
  EXPECT_EQ(parse_expression("true")->value, confeval::Value(true));
  EXPECT_EQ(parse_expression("'s'")->value, confeval::Value("s"));
}

TEST(ExpressionParser, TrailingCommaInArraysAndCalls) {
  EXPECT_EQ(parsed("[1, 2,]"), "[1, 2]");
  EXPECT_EQ(parsed("min(1, 2,)"), "min(1, 2)");
}

TEST(ExpressionParser, ArraysMaySpanLines) { EXPECT_EQ(parsed("[\n  1,\n  2,\n]"), "[1, 2]"); }

TEST(ExpressionParser, BinaryNodeIsLocatedAtTheOperator) {
  const ExprPtr e = parse_expression("alpha  * 2");
  EXPECT_EQ(e->binary_op, BinaryOp::Mul);
  EXPECT_EQ(position(e->where), "1:8");
  EXPECT_EQ(position(e->operands[1]->where), "1:10");
}

TEST(ExpressionParser, PrecedenceTableOrdersTheLevels) {
  EXPECT_LT(confeval::binary_precedence(BinaryOp::Or), confeval::binary_precedence(BinaryOp::And));
  EXPECT_LT(confeval::binary_precedence(BinaryOp::And), confeval::binary_precedence(BinaryOp::Eq));
  EXPECT_LT(confeval::binary_precedence(BinaryOp::Eq), confeval::binary_precedence(BinaryOp::Lt));
  EXPECT_LT(confeval::binary_precedence(BinaryOp::Lt), confeval::binary_precedence(BinaryOp::Add));
  EXPECT_LT(confeval::binary_precedence(BinaryOp::Add), confeval::binary_precedence(BinaryOp::Mul));
  EXPECT_LT(confeval::binary_precedence(BinaryOp::Mul), confeval::binary_precedence(BinaryOp::Pow));
  EXPECT_EQ(confeval::binary_precedence(BinaryOp::Mul), confeval::binary_precedence(BinaryOp::Mod));
}

// --- errors ------------------------------------------------------------------------------

struct ErrorCase {
  const char* text;
  const char* message;
  const char* position;
};

class ExpressionError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ExpressionError, MessageAndColumn) {
  const SyntaxError e = capture<SyntaxError>([] { parse_expression(GetParam().text); });
  EXPECT_EQ(e.message(), GetParam().message);
  EXPECT_EQ(position(e.where()), GetParam().position);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ExpressionError,
    ::testing::Values(
        ErrorCase{"1 +", "expected a value, found end of input", "1:4"},
        ErrorCase{"(1 + 2", "expected ')', found end of input", "1:7"},
        ErrorCase{"1 2", "unexpected integer 2 after the expression", "1:3"},
        ErrorCase{"a < b < c", "comparison operators cannot be chained; combine them with '&&'",
                  "1:7"},
        ErrorCase{"[1 2]", "expected ',' or ']' in array, found integer 2", "1:4"},
        ErrorCase{"f(1; 2)", "unexpected character ';'", "1:4"},
        ErrorCase{"a ? b", "expected ':' of the conditional expression, found end of input",
                  "1:6"},
        ErrorCase{"a.", "expected identifier after '.', found end of input", "1:3"},
        ErrorCase{"${a", "expected '}' closing '${', found end of input", "1:4"},
        ErrorCase{"xs[1", "expected ']' after the index, found end of input", "1:5"},
        ErrorCase{"= 1", "expected a value, found '='", "1:1"}));

}  // namespace
