// The training (gradient, optimizer) and numerics (epsilon) operators on an Adam/SGD/backward source.
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

const char* const kTraining =
    "#include <cmath>\n"
    "\n"
    "double norm(double var, double eps) { return 1.0 / std::sqrt(var + eps); }\n"
    "double adam_denom(double v, double eps) { return std::sqrt(v) + eps; }\n"
    "\n"
    "struct Options { double lr = 0.1, beta1 = 0.9, beta2 = 0.999, eps = 1e-8; };\n"
    "\n"
    "void step(double* w, const double* g, double* m, double* v, int n, int t, Options o) {\n"
    "  const double bias_correction1 = 1.0 - std::pow(o.beta1, t);\n"
    "  const double bias_correction2 = 1.0 - std::pow(o.beta2, t);\n"
    "  const double step_size = o.lr / bias_correction1;\n"
    "  for (int j = 0; j < n; ++j) {\n"
    "    m[j] = o.beta1 * m[j] + (1.0 - o.beta1) * g[j];\n"
    "    v[j] = o.beta2 * v[j] + (1.0 - o.beta2) * g[j] * g[j];\n"
    "    w[j] -= step_size * m[j] / (std::sqrt(v[j] / bias_correction2) + o.eps);\n"
    "  }\n"
    "}\n"
    "\n"
    "void sgd(double* w, const double* g, double* buf, int n, double lr, double momentum) {\n"
    "  for (int j = 0; j < n; ++j) {\n"
    "    buf[j] = momentum * buf[j] + g[j];\n"
    "    w[j] -= lr * buf[j];\n"
    "  }\n"
    "}\n"
    "\n"
    "double scale_backward(const double* dy, const double* x, double s, double* dx, int n) {\n"
    "  double grad_s = 0.0;\n"
    "  for (int i = 0; i < n; ++i) {\n"
    "    dx[i] = dy[i] * s;\n"
    "    grad_s += dy[i] * x[i];\n"
    "  }\n"
    "  return grad_s;\n"
    "}\n";

TEST(TrainingOperators, RemoveEpsilon) {
  expect_mutants(Operator::remove_epsilon, "train.cpp", kTraining,
                 {{3, "var + eps", "var"},
                  {4, "std::sqrt(v) + eps", "std::sqrt(v)"},
                  {15, "std::sqrt(v[j] / bias_correction2) + o.eps", "std::sqrt(v[j] / bias_correction2)"}});
}

TEST(TrainingOperators, MisplaceEpsilonAcrossTheSquareRoot) {
  expect_mutants(Operator::misplace_epsilon, "train.cpp", kTraining,
                 {{3, "std::sqrt(var + eps)", "(std::sqrt(var) + eps)"},
                  {4, "std::sqrt(v) + eps", "std::sqrt(v + eps)"},
                  {15, "std::sqrt(v[j] / bias_correction2) + o.eps", "std::sqrt(v[j] / bias_correction2 + o.eps)"}});
}

TEST(TrainingOperators, BiasCorrectionRemoved) {
  expect_mutants(Operator::optimizer_bias_correction, "train.cpp", kTraining,
                 {{9, "1.0 - std::pow(o.beta1, t)", "1.0"},
                  {10, "1.0 - std::pow(o.beta2, t)", "1.0"},
                  {11, "o.lr / bias_correction1", "o.lr"},
                  {15, "v[j] / bias_correction2", "v[j]"}});
}

TEST(TrainingOperators, MomentumTermDropped) {
  expect_mutants(Operator::optimizer_momentum, "train.cpp", kTraining,
                 {{13, "o.beta1 * m[j] + (1.0 - o.beta1) * g[j]", "(1.0 - o.beta1) * g[j]"},
                  {14, "o.beta2 * v[j] + (1.0 - o.beta2) * g[j] * g[j]", "(1.0 - o.beta2) * g[j] * g[j]"},
                  {21, "momentum * buf[j] + g[j]", "g[j]"}});
}

TEST(TrainingOperators, LearningRateTwiceOrNotAtAll) {
  expect_mutants(
      Operator::optimizer_learning_rate, "train.cpp", kTraining,
      {{11, "o.lr", "1.0"}, {11, "o.lr", "o.lr * o.lr"}, {22, "lr", "lr * lr"}, {22, "lr * buf[j]", "buf[j]"}});
}

TEST(TrainingOperators, GradientSignOnlyInBackwardFunctions) {
  expect_mutants(Operator::gradient_sign, "train.cpp", kTraining,
                 {{29, "dy[i] * s", "-(dy[i] * s)"}, {30, "+=", "-="}, {32, "grad_s", "-grad_s"}});
}

TEST(TrainingOperators, GradientScale) {
  expect_mutants(
      Operator::gradient_scale, "train.cpp", kTraining,
      {{29, "dy[i] * s", "2 * (dy[i] * s)"}, {30, "dy[i] * x[i]", "2 * (dy[i] * x[i])"}, {32, "grad_s", "2 * grad_s"}});
}

TEST(TrainingOperators, GradientSignWorksInTemplates) {
  // A generic lambda's operands have no type yet: the sign flip still applies, the
  // scaling (which needs a known scalar type) does not.
  expect_mutants(Operator::gradient_sign, "tmpl.cpp",
                 "template <typename F> double apply(F f) { return f(1.0, 2.0); }\n"
                 "double relu_backward(double g, double x) {\n"
                 "  return apply([](auto gg, auto xx) { return xx > 0 ? gg : 0 * gg; }) * g * x;\n"
                 "}\n",
                 {{3, "apply([](auto gg, auto xx) { return xx > 0 ? gg : 0 * gg; }) * g * x",
                   "-(apply([](auto gg, auto xx) { return xx > 0 ? gg : 0 * gg; }) * g * x)"},
                  {3, "xx > 0 ? gg : 0 * gg", "-(xx > 0 ? gg : 0 * gg)"}});
}

}  // namespace
}  // namespace dlfl::mutate::testing
