/* The built-in functions: abs, min, max, avg, sqrt, pow, hypot, floor, ceil, round, gcd,
 * fact. */
#ifndef CALC_BUILTINS_H
#define CALC_BUILTINS_H

typedef struct {
  double value;
  const char* error; /* NULL on success, else a message (static storage) */
} CallResult;

/* Calls `name` with `argc` arguments. An unknown name or a wrong argument count is an
 * error, like a domain error. */
CallResult builtin_call(const char* name, const double* args, int argc);

#endif
