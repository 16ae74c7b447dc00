// The traditional operators, one small source each: exact edits, patches apply, results compile.
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

TEST(TraditionalOperators, ArithmeticReplacementRespectsTypes) {
  expect_mutants(Operator::arithmetic_replace, "arith.cpp",
                 "int f(int a, int b, int* p) {\n"
                 "  int x = a + b;\n"
                 "  x -= a * b;\n"
                 "  x = x / b % 3;\n"
                 "  int* q = p + 1;\n"
                 "  int* r = 1 + p;\n"  // i - p would not compile
                 "  long d = q - p;\n"  // nor q + p
                 "  x *= 2;\n"
                 "  return x + static_cast<int>(d) + *r;\n"
                 "}\n",
                 {{2, "+", "-"},
                  {3, "-=", "+="},
                  {3, "*", "/"},
                  {4, "/", "*"},
                  {4, "%", "/"},
                  {5, "+", "-"},
                  {8, "*=", "/="},
                  {9, "+", "-"},
                  {9, "+", "-"}});
}

TEST(TraditionalOperators, RelationalReplacementSkipsNullComparisons) {
  expect_mutants(Operator::relational_replace, "rel.cpp",
                 "bool g(int a, double b, const int* p) {\n"
                 "  bool r = a < 3;\n"
                 "  r = r && p != nullptr;\n"
                 "  return r || b == 0.5;\n"
                 "}\n",
                 {{2, "<", "!="},
                  {2, "<", "<="},
                  {2, "<", "=="},
                  {2, "<", ">"},
                  {2, "<", ">="},
                  {3, "!=", "=="},
                  {4, "==", "!="},
                  {4, "==", "<"},
                  {4, "==", "<="},
                  {4, "==", ">"},
                  {4, "==", ">="}});
}

TEST(TraditionalOperators, LogicalReplacement) {
  expect_mutants(Operator::logical_replace, "logic.cpp",
                 "bool h(bool a, bool b, bool c) {\n"
                 "  return (a && b) || !c;\n"
                 "}\n",
                 {{2, "&&", "||"}, {2, "||", "&&"}});
}

TEST(TraditionalOperators, ConstantReplacementKeepsSuffixesAndConstantContexts) {
  expect_mutants(Operator::constant_replace, "consts.cpp",
                 "double k(int n, const char* s) {\n"
                 "  int a = n * 0 + 1;\n"
                 "  double x = 2.5f + 0.0;\n"
                 "  bool t = true;\n"
                 "  int h = 0x10;\n"  // bit patterns stay
                 "  long big = 10L;\n"
                 "  if (s == 0) return 0.5;\n"           // 0 as a null pointer stays
                 "  switch (n) { case 1: return a; }\n"  // case labels stay
                 "  int arr[4] = {};\n"                  // array bounds stay
                 "  return x + t + h + big + arr[0];\n"
                 "}\n",
                 {{2, "0", "1"},
                  {2, "1", "0"},
                  {2, "1", "2"},
                  {3, "2.5f", "1.5f"},
                  {3, "2.5f", "3.5f"},
                  {3, "0.0", "1.0"},
                  {4, "true", "false"},
                  {6, "10L", "11L"},
                  {6, "10L", "9L"},
                  {7, "0.5", "1.5"},
                  {10, "0", "1"}});
}

TEST(TraditionalOperators, LoopBoundOnlyInLoopConditions) {
  expect_mutants(Operator::loop_bound, "loops.cpp",
                 "int loops(int n) {\n"
                 "  int s = 0;\n"
                 "  for (int i = 0; i < n; ++i) s += i;\n"
                 "  int j = n;\n"
                 "  while (j > 0 && s >= 0) --j;\n"
                 "  do { ++j; } while (j <= n);\n"
                 "  if (s < n) s = n;\n"
                 "  return s + j;\n"
                 "}\n",
                 {{3, "<", "<="}, {5, ">", ">="}, {5, ">=", ">"}, {6, "<=", "<"}});
}

TEST(TraditionalOperators, NegatedConditionSkipsIfConstexpr) {
  expect_mutants(Operator::negate_condition, "conds.cpp",
                 "int conds(int n, bool f) {\n"
                 "  int s = 0;\n"
                 "  if (n > 2) s = 1;\n"
                 "  while (!f) f = true;\n"
                 "  for (int i = 0; i < n; ++i) s += i;\n"
                 "  if constexpr (sizeof(int) == 4) s += 2;\n"
                 "  return f ? s : -s;\n"
                 "}\n",
                 {{3, "n > 2", "!(n > 2)"}, {4, "!f", "f"}, {5, "i < n", "!(i < n)"}, {7, "f", "!(f)"}});
}

TEST(TraditionalOperators, DeletedStatementIsNeverADeclaration) {
  expect_mutants(Operator::delete_statement, "del.cpp",
                 "void sink(int);\n"
                 "int del(int n) {\n"
                 "  int x = n;\n"
                 "  sink(x);\n"
                 "  x += 2; ++x;\n"
                 "  if (x > 3) sink(x);\n"
                 "  (void)x;\n"
                 "  return x;\n"
                 "}\n",
                 {{4, "  sink(x);\n", ""}, {5, "x += 2;", ""}, {5, "++x;", ""}});
}

TEST(TraditionalOperators, SwappedArgumentsOfTheSameType) {
  expect_mutants(Operator::swap_arguments, "args.cpp",
                 "int pick(int a, int b, double c);\n"
                 "double mx(double a, double b);\n"
                 "int max(int a, int b);\n"
                 "int args(int x, int y, double z) {\n"
                 "  int r = pick(x, y, z);\n"
                 "  r += pick(x, x, z);\n"  // same text: no mutant
                 "  r += static_cast<int>(mx(z, 1.0));\n"
                 "  return r + max(x, y);\n"  // symmetric: equivalent mutant
                 "}\n",
                 {{5, "x, y", "y, x"}, {7, "z, 1.0", "1.0, z"}});
}

TEST(TraditionalOperators, ArgumentReplacedByAnotherVariableOfItsTypeInScope) {
  expect_mutants(Operator::argument_replace, "argvar.cpp",
                 "int chain(const int* ctx, int index);\n"
                 "int g(const int* ctx, int mark, double w) {\n"
                 "  int opener = mark - 1;\n"
                 "  { int hidden = 2; (void)hidden; }\n"  // its scope has ended by the calls
                 "  int r = chain(ctx, mark);\n"           // not r itself: its declaration holds the call
                 "  for (int i = 0; i < 2; ++i) r += chain(ctx, i);\n"
                 "  int late = chain(ctx, 3) + chain(ctx, r);\n"  // a literal is constant_replace's
                 "  return late + static_cast<int>(w);\n"
                 "}\n",
                 {{5, "mark", "opener"},
                  {6, "i", "mark"},
                  {6, "i", "opener"},
                  {6, "i", "r"},
                  {7, "r", "mark"},
                  {7, "r", "opener"}});
}

TEST(TraditionalOperators, UnaryDeleteDropsMinusComplementAndNotOnNumbers) {
  expect_mutants(Operator::unary_delete, "unary.cpp",
                 "struct V { V operator-() const; };\n"
                 "int f(int a, unsigned m, bool b, const int* p, V v) {\n"
                 "  int x = -a + ~m;\n"
                 "  bool c = !b;\n"
                 "  if (!b) x = -1;\n"  // -1 is a constant
                 "  V w = -v;\n"        // a class's operator-
                 "  return x + c + !p;\n"  // a pointer's !
                 "}\n",
                 {{3, "-a", "a"}, {3, "~m", "m"}, {4, "!b", "b"}, {5, "!b", "b"}});
}

TEST(TraditionalOperators, IncrementReplaceOnNumbersOnly) {
  expect_mutants(Operator::increment_replace, "incr.cpp",
                 "#include <vector>\n"
                 "int f(int n, double d, std::vector<int>::iterator it) {\n"
                 "  for (int i = 0; i < n; ++i) d--;\n"
                 "  ++it;\n"  // not a number
                 "  return n++ + static_cast<int>(d);\n"
                 "}\n",
                 {{3, "++", "--"}, {3, "--", "++"}, {5, "++", "--"}});
}

TEST(TraditionalOperators, MacroArgumentsAndWholeUsesAreMutatedNeverBodies) {
  expect_mutants(Operator::arithmetic_replace, "macro_args.cpp",
                 "#define SQUARE(x) ((x) * (x))\n"
                 "#define SET(dst, v) ((dst) = (v) + 1)\n"
                 "int f(int a) {\n"
                 "  int r = 0;\n"
                 "  SET(r, -a + 2);\n"
                 "  return SQUARE(a - 1) * r;\n"
                 "}\n",
                 // The argument `a - 1` is expanded twice: one mutant.
                 {{5, "+", "-"}, {6, "-", "+"}, {6, "*", "/"}});
  expect_mutants(Operator::delete_statement, "macro_stmt.cpp",
                 "void sink(int);\n"
                 "#define SET(dst, v) ((dst) = (v))\n"
                 "#define ADD(t, x) do { (t) += (x); sink(t); } while (0)\n"
                 "int f(int a) {\n"
                 "  int r = 0;\n"
                 "  SET(r, a);\n"
                 "  ADD(r, a);\n"
                 "  return r;\n"
                 "}\n",
                 {{6, "  SET(r, a);\n", ""}, {7, "  ADD(r, a);\n", ""}});
}

}  // namespace
}  // namespace dlfl::mutate::testing
