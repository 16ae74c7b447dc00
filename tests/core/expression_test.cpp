// Tests for Expression: the grammar, array evaluation, and the column-precise messages.
#include "dlfl/expression.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "dlfl/counts.h"
#include "dlfl/error.h"

namespace dlfl {
namespace {

using Eigen::ArrayXd;

// Five elements of a suite with F = 3 failing and P = 6 passing tests.
Counts sample_counts() {
  ArrayXd ef(5), ep(5);
  ef << 3, 2, 1, 0, 3;
  ep << 0, 1, 4, 2, 5;
  return Counts::from(ef, ep, 3.0, 6.0);
}

// The value of a formula without variables (evaluated over one element).
double constant(std::string_view text) {
  const Counts one = Counts::from(ArrayXd::Zero(1), ArrayXd::Zero(1), 0.0, 0.0);
  return Expression::parse(text).evaluate(one)(0);
}

// The message a malformed formula is rejected with.
std::string parse_error(std::string_view text) {
  try {
    Expression::parse(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "(parsed without error)";
}

TEST(ExpressionTest, OchiaiMatchesHandComputedScores) {
  const ArrayXd scores = Expression::parse("ef / sqrt((ef+nf)*(ef+ep))").evaluate(sample_counts());
  ASSERT_EQ(scores.size(), 5);
  EXPECT_DOUBLE_EQ(scores(0), 1.0);                    // 3 / sqrt(3 * 3)
  EXPECT_DOUBLE_EQ(scores(1), 2.0 / 3.0);              // 2 / sqrt(3 * 3)
  EXPECT_DOUBLE_EQ(scores(2), 1.0 / std::sqrt(15.0));  // 1 / sqrt(3 * 5)
  EXPECT_DOUBLE_EQ(scores(3), 0.0);                    // 0 / sqrt(3 * 2)
  EXPECT_DOUBLE_EQ(scores(4), 3.0 / std::sqrt(24.0));  // 3 / sqrt(3 * 8)
}

TEST(ExpressionTest, VariablesAreTheFourCounts) {
  const Counts counts = sample_counts();
  EXPECT_TRUE((Expression::parse("ef").evaluate(counts) == counts.ef).all());
  EXPECT_TRUE((Expression::parse("ep").evaluate(counts) == counts.ep).all());
  EXPECT_TRUE(
      (Expression::parse("nf").evaluate(counts) == ArrayXd::Constant(5, 3.0) - counts.ef).all());
  EXPECT_TRUE(
      (Expression::parse("np").evaluate(counts) == ArrayXd::Constant(5, 6.0) - counts.ep).all());
}

TEST(ExpressionTest, TextIsKeptAsWritten) {
  EXPECT_EQ(Expression::parse("  ef /(ep+1) ").text(), "  ef /(ep+1) ");
}

TEST(ExpressionTest, PrecedenceAndAssociativity) {
  EXPECT_DOUBLE_EQ(constant("2^3^2"), 512.0);  // ^ is right-associative: 2^(3^2)
  EXPECT_DOUBLE_EQ(constant("-2^2"), -4.0);    // ^ binds tighter than a leading minus
  EXPECT_DOUBLE_EQ(constant("1-2-3"), -4.0);   // - and / are left-associative
  EXPECT_DOUBLE_EQ(constant("8/4/2"), 1.0);
  EXPECT_DOUBLE_EQ(constant("2+3*4"), 14.0);
  EXPECT_DOUBLE_EQ(constant("(2+3)*4"), 20.0);
  EXPECT_DOUBLE_EQ(constant("2*3^2"), 18.0);
  EXPECT_DOUBLE_EQ(constant("2^-1"), 0.5);  // an exponent may carry a sign
  EXPECT_DOUBLE_EQ(constant("-2*-3"), 6.0);
  EXPECT_DOUBLE_EQ(constant("--2"), 2.0);
  EXPECT_DOUBLE_EQ(constant("10/4"), 2.5);  // no integer division
}

TEST(ExpressionTest, MinusIsUnaryOrBinaryAnywhere) {
  const Counts counts = sample_counts();  // ef = 3 2 1 0 3
  auto scores = [&](std::string_view text) { return Expression::parse(text).evaluate(counts); };
  EXPECT_TRUE((scores("ef-1") == counts.ef - 1.0).all());
  EXPECT_TRUE((scores("-ef+2") == 2.0 - counts.ef).all());
  EXPECT_TRUE((scores("ef*-1") == -counts.ef).all());
  EXPECT_TRUE((scores("2--ef") == 2.0 + counts.ef).all());
  EXPECT_TRUE((scores("ef-ep") == counts.ef - counts.ep).all());
  EXPECT_TRUE((scores("ef/-(ep+1)") == -counts.ef / (counts.ep + 1.0)).all());
  EXPECT_DOUBLE_EQ(constant("1-1"), 0.0);
  EXPECT_DOUBLE_EQ(constant("1--1"), 2.0);
  EXPECT_DOUBLE_EQ(constant("-1-1"), -2.0);
  EXPECT_DOUBLE_EQ(constant("2^-1-1"), -0.5);
}

TEST(ExpressionTest, LeadingMinusAppliesAfterThePowerOfAVariable) {
  ArrayXd ef(2);
  ef << 3, -2;
  const ArrayXd scores =
      Expression::parse("-ef^2").evaluate(Counts::from(ef, ArrayXd::Zero(2), 5.0, 0.0));
  EXPECT_DOUBLE_EQ(scores(0), -9.0);
  EXPECT_DOUBLE_EQ(scores(1), -4.0);
}

TEST(ExpressionTest, NumberSyntax) {
  EXPECT_DOUBLE_EQ(constant("42"), 42.0);
  EXPECT_DOUBLE_EQ(constant("0.25"), 0.25);
  EXPECT_DOUBLE_EQ(constant(".5"), 0.5);
  EXPECT_DOUBLE_EQ(constant("1."), 1.0);
  EXPECT_DOUBLE_EQ(constant("1e3"), 1000.0);
  EXPECT_DOUBLE_EQ(constant("2.5E-1"), 0.25);
  EXPECT_DOUBLE_EQ(constant("1e+2"), 100.0);
}

TEST(ExpressionTest, UnicodeOperatorsReadAsAscii) {
  EXPECT_DOUBLE_EQ(constant("6 \u00D7 2 \u00F7 4 \u2212 1"), 2.0);  // 6 × 2 ÷ 4 − 1
  EXPECT_DOUBLE_EQ(constant("\u22122^2"), -4.0);                    // −2^2
}

TEST(ExpressionTest, WhitespaceIsIgnoredBetweenTokens) {
  EXPECT_DOUBLE_EQ(constant(" \t1 +\n2\r\n* 3 "), 7.0);
  EXPECT_DOUBLE_EQ(constant("max ( 1 , 2 )"), 2.0);
  EXPECT_DOUBLE_EQ(constant("2^3"), constant("2 ^ 3"));
}

TEST(ExpressionTest, OneArgumentFunctions) {
  EXPECT_DOUBLE_EQ(constant("sqrt(16)"), 4.0);
  EXPECT_DOUBLE_EQ(constant("log(1)"), 0.0);
  EXPECT_NEAR(constant("log(exp(2))"), 2.0, 1e-15);  // log is the natural logarithm
  EXPECT_DOUBLE_EQ(constant("exp(0)"), 1.0);
  EXPECT_DOUBLE_EQ(constant("abs(-3)"), 3.0);
  EXPECT_DOUBLE_EQ(constant("abs(3)"), 3.0);

  const Counts counts = sample_counts();  // ef 3 2 1 0 3, ep 0 1 4 2 5
  const ArrayXd differences = Expression::parse("abs(ef - ep)").evaluate(counts);
  const ArrayXd expected = (ArrayXd(5) << 3, 1, 3, 2, 2).finished();
  EXPECT_TRUE((differences == expected).all());
  const ArrayXd roots = Expression::parse("sqrt(ep)").evaluate(counts);
  EXPECT_DOUBLE_EQ(roots(2), 2.0);
}

TEST(ExpressionTest, MinAndMaxTakeTwoOrMoreArguments) {
  EXPECT_DOUBLE_EQ(constant("min(2, 1)"), 1.0);
  EXPECT_DOUBLE_EQ(constant("max(2, 1)"), 2.0);
  EXPECT_DOUBLE_EQ(constant("min(3, 1, 2)"), 1.0);
  EXPECT_DOUBLE_EQ(constant("max(1, 3, 2, -5)"), 3.0);

  const Counts counts = sample_counts();  // ef 3 2 1 0 3, ep 0 1 4 2 5, nf 0 1 2 3 0
  const ArrayXd low = Expression::parse("min(ef, ep, nf)").evaluate(counts);
  const ArrayXd high = Expression::parse("max(ef, ep, nf)").evaluate(counts);
  EXPECT_TRUE((low == (ArrayXd(5) << 0, 1, 1, 0, 0).finished()).all());
  EXPECT_TRUE((high == (ArrayXd(5) << 3, 2, 4, 3, 5).finished()).all());
  // A constant argument broadcasts like any other operand.
  const ArrayXd capped = Expression::parse("min(ep, 2)").evaluate(counts);
  EXPECT_TRUE((capped == (ArrayXd(5) << 0, 1, 2, 2, 2).finished()).all());
}

TEST(ExpressionTest, DivisionFollowsIeeeArithmetic) {
  ArrayXd ef(3), ep(3);
  ef << 1, 0, 1;
  ep << 0, 0, 1;
  const ArrayXd scores = Expression::parse("ef / ep").evaluate(Counts::from(ef, ep, 2.0, 1.0));
  EXPECT_EQ(scores(0), std::numeric_limits<double>::infinity());  // Formula::score sanitizes
  EXPECT_TRUE(std::isnan(scores(1)));
  EXPECT_EQ(scores(2), 1.0);
  EXPECT_EQ(constant("-1/0"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(constant("log(0)"), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(constant("sqrt(-1)")));
}

TEST(ExpressionTest, MinAndMaxKeepAnUndefinedArgumentUndefined) {
  EXPECT_TRUE(std::isnan(constant("min(0/0, 1)")));
  EXPECT_TRUE(std::isnan(constant("min(1, 0/0)")));
  EXPECT_TRUE(std::isnan(constant("max(1, 2, 0/0)")));
}

TEST(ExpressionTest, VariablesBroadcastOverAnyArraySize) {
  for (const Eigen::Index size : {0, 1, 1000}) {
    const ArrayXd ef = ArrayXd::LinSpaced(size, 0.0, 999.0);
    const Counts counts = Counts::from(ef, ArrayXd::Zero(size), 1000.0, 10.0);
    const ArrayXd shifted = Expression::parse("2 * ef + 1").evaluate(counts);
    ASSERT_EQ(shifted.size(), size);
    EXPECT_TRUE((shifted == 2.0 * ef + 1.0).all());
    // A formula without variables still gives one score per element.
    const ArrayXd constants = Expression::parse("2 * 3").evaluate(counts);
    ASSERT_EQ(constants.size(), size);
    EXPECT_TRUE((constants == 6.0).all());
  }
}

TEST(ExpressionTest, FoldingConstantsDoesNotChangeTheValue) {
  const Counts counts = sample_counts();
  const ArrayXd folded = Expression::parse("ef * (2 + 3) ^ 2 / sqrt(4)").evaluate(counts);
  EXPECT_TRUE((folded == counts.ef * 12.5).all());
  // A constant chain folds as it is read, so its length is not bounded by the depth limit.
  std::string long_sum = "1";
  for (int i = 0; i < 1000; ++i) long_sum += "+1";
  EXPECT_DOUBLE_EQ(constant(long_sum), 1001.0);
}

TEST(ExpressionTest, CopiesShareTheParsedTree) {
  const Expression original = Expression::parse("ef - ep");
  const Expression copy = original;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(copy.text(), "ef - ep");
  EXPECT_TRUE((copy.evaluate(sample_counts()) == original.evaluate(sample_counts())).all());
}

TEST(ExpressionErrorTest, EmptyFormula) {
  EXPECT_EQ(parse_error(""), "formula '': column 1: empty formula");
  EXPECT_EQ(parse_error("   "), "formula '   ': column 1: empty formula");
}

TEST(ExpressionErrorTest, UnbalancedParentheses) {
  EXPECT_EQ(parse_error("ef / (ep"),
            "formula 'ef / (ep': column 9: expected ')' to close the '(' at column 6");
  EXPECT_EQ(parse_error("((ef)"),
            "formula '((ef)': column 6: expected ')' to close the '(' at column 1");
  EXPECT_EQ(parse_error("ef)"), "formula 'ef)': column 3: unmatched ')'");
  EXPECT_EQ(parse_error("(ef))"), "formula '(ef))': column 5: unmatched ')'");
  EXPECT_EQ(parse_error("(ef ep)"),
            "formula '(ef ep)': column 5: expected an operator or ')', found 'ep'");
  EXPECT_EQ(
      parse_error("()"),
      "formula '()': column 2: expected a number, variable, function or '(' after '(', found ')'");
}

TEST(ExpressionErrorTest, TrailingGarbage) {
  EXPECT_EQ(parse_error("ef ep"), "formula 'ef ep': column 4: expected an operator, found 'ep'");
  EXPECT_EQ(parse_error("ef + 1 2"),
            "formula 'ef + 1 2': column 8: expected an operator, found '2'");
}

TEST(ExpressionErrorTest, TwoOperatorsInARow) {
  EXPECT_EQ(parse_error("ef * / ep"),
            "formula 'ef * / ep': column 6: expected a number, variable, function or '(' after "
            "'*', found '/'");
  EXPECT_EQ(parse_error("ef + + ep"),  // no unary plus: `++` is more likely a typo
            "formula 'ef + + ep': column 6: expected a number, variable, function or '(' after "
            "'+', found '+'");
  EXPECT_EQ(parse_error("* ef"),
            "formula '* ef': column 1: expected a number, variable, function or '(', found '*'");
  EXPECT_EQ(parse_error("ef +"),
            "formula 'ef +': column 5: expected a number, variable, function or '(' after '+', "
            "found end of formula");
}

TEST(ExpressionErrorTest, ColumnsCountCharactersNotBytes) {
  EXPECT_EQ(
      parse_error("ef \u00D7 \u00D7 ep"),  // ef × × ep
      "formula 'ef \u00D7 \u00D7 ep': column 6: expected a number, variable, function or '(' after "
      "'\u00D7', found '\u00D7'");
  EXPECT_EQ(parse_error("ef \u00B7 ep"),
            "formula 'ef \u00B7 ep': column 4: unexpected character '\u00B7'");
}

TEST(ExpressionErrorTest, MessageStaysOnOneLine) {
  EXPECT_EQ(parse_error("ef\t+\nfoo"),  // a tab or newline counts one column, quoted as a space
            "formula 'ef + foo': column 6: unknown name 'foo'; "
            "variables are ef, ep, nf, np; functions are sqrt, log, exp, abs, min, max");
}

TEST(ExpressionErrorTest, UnknownNameListsTheKnownOnes) {
  EXPECT_EQ(parse_error("ef + foo"),
            "formula 'ef + foo': column 6: unknown name 'foo'; "
            "variables are ef, ep, nf, np; functions are sqrt, log, exp, abs, min, max");
  EXPECT_EQ(parse_error("EF"),  // names are lower case
            "formula 'EF': column 1: unknown name 'EF'; "
            "variables are ef, ep, nf, np; functions are sqrt, log, exp, abs, min, max");
  EXPECT_EQ(parse_error("ef $ ep"), "formula 'ef $ ep': column 4: unexpected character '$'");
}

TEST(ExpressionErrorTest, FunctionsAndVariablesUsedTheWrongWay) {
  EXPECT_EQ(parse_error("sqrt ef"),
            "formula 'sqrt ef': column 6: expected '(' after function 'sqrt', found 'ef'");
  EXPECT_EQ(parse_error("1 + log"),
            "formula '1 + log': column 8: expected '(' after function 'log', found end of formula");
  EXPECT_EQ(parse_error("ef(2)"), "formula 'ef(2)': column 3: 'ef' is a variable, not a function");
}

TEST(ExpressionErrorTest, WrongArgumentCount) {
  EXPECT_EQ(parse_error("sqrt(ef, ep)"),
            "formula 'sqrt(ef, ep)': column 1: sqrt takes 1 argument, got 2");
  EXPECT_EQ(parse_error("1 + abs()"), "formula '1 + abs()': column 5: abs takes 1 argument, got 0");
  EXPECT_EQ(parse_error("min(ef)"),
            "formula 'min(ef)': column 1: min takes 2 or more arguments, got 1");
  EXPECT_EQ(parse_error("max()"),
            "formula 'max()': column 1: max takes 2 or more arguments, got 0");
}

TEST(ExpressionErrorTest, MalformedArgumentList) {
  EXPECT_EQ(parse_error("min(ef, ep"),
            "formula 'min(ef, ep': column 11: expected ')' to close the 'min(' at column 1");
  EXPECT_EQ(parse_error("min(ef ep)"),
            "formula 'min(ef ep)': column 8: expected an operator, ',' or ')', found 'ep'");
  EXPECT_EQ(parse_error("min(ef,)"),
            "formula 'min(ef,)': column 8: expected a number, variable, function or '(' after ',', "
            "found ')'");
}

TEST(ExpressionErrorTest, MalformedNumbers) {
  EXPECT_EQ(parse_error("1e"), "formula '1e': column 1: malformed number '1e'");
  EXPECT_EQ(parse_error("ef + 1.5e+"), "formula 'ef + 1.5e+': column 6: malformed number '1.5e+'");
  EXPECT_EQ(parse_error("1.2.3"), "formula '1.2.3': column 1: malformed number '1.2.3'");
  EXPECT_EQ(parse_error("2ef"),
            "formula '2ef': column 1: malformed number '2ef'");  // no implicit *
  EXPECT_EQ(parse_error("1e999"), "formula '1e999': column 1: number '1e999' is out of range");
}

TEST(ExpressionErrorTest, NestingIsBoundedWithoutExhaustingTheStack) {
  const std::string nested_200 = std::string(200, '(') + "ef" + std::string(200, ')');
  EXPECT_TRUE(
      (Expression::parse(nested_200).evaluate(sample_counts()) == sample_counts().ef).all());

  const std::string nested_300 = std::string(300, '(') + "ef" + std::string(300, ')');
  EXPECT_EQ(parse_error(nested_300), "formula '" + std::string(120, '(') +
                                         "...': column 257: nested deeper than 256 levels");

  // Far beyond any stack: rejected at the same column, long before recursion could hurt.
  EXPECT_NE(parse_error(std::string(1'000'000, '(')).find("column 257: nested deeper"),
            std::string::npos);
  EXPECT_NE(
      parse_error(std::string(1'000'000, '-') + "ef").find("column 257: nested deeper"),
      std::string::npos);

  // A long chain nests the tree (and so the evaluator) without nesting parentheses:
  // ef+ef+...: the 256th '+' (column 3 * 256) would make the tree 257 levels deep.
  std::string chain = "ef";
  for (int i = 0; i < 300; ++i) chain += "+ef";
  EXPECT_NE(parse_error(chain).find("column 768: nested deeper than 256 levels"),
            std::string::npos);
}

}  // namespace
}  // namespace dlfl
