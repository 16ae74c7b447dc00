/* Built-in functions, each checking its domain. */
#include "builtins.h"

#include <math.h>
#include <string.h>

typedef CallResult (*BuiltinFn)(const double* args, int argc);

static CallResult ok(double value) {
  CallResult r = {value, NULL};
  return r;
}

static CallResult error(const char* message) {
  CallResult r = {0, message};
  return r;
}

static int is_integer(double x) { return isfinite(x) && x == floor(x); }

static CallResult f_abs(const double* a, int n) {
  (void)n;
  return ok(fabs(a[0]));
}

static CallResult f_min(const double* a, int n) {
  double best = a[0];
#if CALC_FAULT_MIN_LAST_ARG
  for (int i = 1; i < n - 1; ++i)
#else
  for (int i = 1; i < n; ++i)
#endif
    if (a[i] < best) best = a[i];
  return ok(best);
}

static CallResult f_max(const double* a, int n) {
  double best = a[0];
  for (int i = 1; i < n; ++i)
    if (a[i] > best) best = a[i];
  return ok(best);
}

static CallResult f_avg(const double* a, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += a[i];
  return ok(sum / n);
}

static CallResult f_sqrt(const double* a, int n) {
  (void)n;
  if (a[0] < 0) return error("sqrt of a negative number");
  return ok(sqrt(a[0]));
}

static CallResult f_pow(const double* a, int n) {
  (void)n;
  if (a[0] == 0 && a[1] < 0) return error("0 to a negative power");
  if (a[0] < 0 && !is_integer(a[1])) return error("negative base to a fractional power");
  return ok(pow(a[0], a[1]));
}

static CallResult f_hypot(const double* a, int n) {
  (void)n;
  return ok(hypot(a[0], a[1]));
}

static CallResult f_floor(const double* a, int n) {
  (void)n;
  return ok(floor(a[0]));
}

static CallResult f_ceil(const double* a, int n) {
  (void)n;
  return ok(ceil(a[0]));
}

static CallResult f_round(const double* a, int n) {
  (void)n;
#if CALC_FAULT_ROUND_HALF
  return ok(floor(a[0] + 0.5));
#else
  return ok(round(a[0]));  /* halves away from zero */
#endif
}

static CallResult f_gcd(const double* a, int n) {
  (void)n;
  if (!is_integer(a[0]) || !is_integer(a[1])) return error("gcd needs integers");
#if CALC_FAULT_GCD_SIGN
  double x = a[0], y = a[1];
#else
  double x = fabs(a[0]), y = fabs(a[1]);
#endif
  while (y != 0) {
    const double r = fmod(x, y);
    x = y;
    y = r;
  }
  return ok(x);
}

static CallResult f_fact(const double* a, int n) {
  (void)n;
  if (!is_integer(a[0]) || a[0] < 0) return error("fact needs a non-negative integer");
  if (a[0] > 170) return error("fact overflows");
  double r = 1;
  for (int i = 2; i <= (int)a[0]; ++i) r *= i;
  return ok(r);
}

typedef struct {
  const char* name;
  int min_args, max_args;
  BuiltinFn fn;
} Builtin;

static const Builtin kBuiltins[] = {
    {"abs", 1, 1, f_abs},     {"min", 1, 8, f_min},     {"max", 1, 8, f_max},   {"avg", 1, 8, f_avg},
    {"sqrt", 1, 1, f_sqrt},   {"pow", 2, 2, f_pow},     {"hypot", 2, 2, f_hypot}, {"floor", 1, 1, f_floor},
    {"ceil", 1, 1, f_ceil},   {"round", 1, 1, f_round}, {"gcd", 2, 2, f_gcd},   {"fact", 1, 1, f_fact},
};

CallResult builtin_call(const char* name, const double* args, int argc) {
  for (size_t i = 0; i < sizeof kBuiltins / sizeof kBuiltins[0]; ++i) {
    const Builtin* b = &kBuiltins[i];
    if (strcmp(b->name, name) != 0) continue;
    if (argc < b->min_args || argc > b->max_args) return error("wrong number of arguments");
    return b->fn(args, argc);
  }
  return error("unknown function");
}
