/* Tree-walking evaluator: doubles throughout; division by zero and domain errors are
 * errors with the column of the operator or call, never inf or nan. */
#include "eval.h"

#include <math.h>
#include <stdio.h>

#include "builtins.h"

static double fail(EvalResult* out, const char* what, const char* name, int column) {
  if (out->error[0] == '\0') {
    if (name)
      snprintf(out->error, sizeof out->error, "%s '%s'", what, name);
    else
      snprintf(out->error, sizeof out->error, "%s", what);
    out->error_column = column;
  }
  return 0;
}

static double eval_node(const Node* n, VarTable* vars, EvalResult* out);

static double eval_binary(const Node* n, VarTable* vars, EvalResult* out) {
  const double a = eval_node(n->left, vars, out);
  const double b = eval_node(n->right, vars, out);
  if (out->error[0]) return 0;
  switch (n->op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b == 0) return fail(out, "division by zero", NULL, n->column);
      return a / b;
    case '%':
      if (b == 0) return fail(out, "modulo by zero", NULL, n->column);
      return fmod(a, b);
    default: {
      const double args[2] = {a, b};
      const CallResult r = builtin_call("pow", args, 2);
      if (r.error) return fail(out, r.error, NULL, n->column);
      return r.value;
    }
  }
}

static double eval_call(const Node* n, VarTable* vars, EvalResult* out) {
  double args[CALC_MAX_ARGS];
  for (int i = 0; i < n->argc; ++i) args[i] = eval_node(n->args[i], vars, out);
  if (out->error[0]) return 0;
  const CallResult r = builtin_call(n->name, args, n->argc);
  if (r.error) return fail(out, r.error, n->name, n->column);
  return r.value;
}

static double eval_node(const Node* n, VarTable* vars, EvalResult* out) {
  switch (n->kind) {
    case NODE_NUMBER:
      return n->number;
    case NODE_VARIABLE: {
      const Variable* v = vars_lookup(vars, n->name);
#if !CALC_FAULT_UNDEFINED_VARIABLE
      if (!v) return fail(out, "undefined variable", n->name, n->column);
#endif
      return v->value;
    }
    case NODE_NEGATE:
      return -eval_node(n->left, vars, out);
    case NODE_BINARY:
      return eval_binary(n, vars, out);
    case NODE_CALL:
      return eval_call(n, vars, out);
  }
  return fail(out, "internal error: unknown node", NULL, n->column);
}

void evaluate(const Node* node, VarTable* vars, EvalResult* out) {
  out->error[0] = '\0';
  out->error_column = 0;
  out->value = eval_node(node, vars, out);
  if (!out->error[0] && !isfinite(out->value)) fail(out, "result out of range", NULL, node->column);
}
