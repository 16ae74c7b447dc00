/* Evaluation of a syntax tree against the variable table. */
#ifndef CALC_EVAL_H
#define CALC_EVAL_H

#include "parser.h"
#include "vars.h"

typedef struct {
  double value;
  char error[128]; /* "" on success */
  int error_column;
} EvalResult;

void evaluate(const Node* node, VarTable* vars, EvalResult* out);

#endif
