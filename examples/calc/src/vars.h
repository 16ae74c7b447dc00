/* Variables: a fixed table of names and values, with the constants pi and e. */
#ifndef CALC_VARS_H
#define CALC_VARS_H

#include "lexer.h"

#define CALC_MAX_VARS 64

typedef struct {
  char name[CALC_NAME_MAX];
  double value;
} Variable;

typedef struct {
  Variable vars[CALC_MAX_VARS];
  int count;
} VarTable;

/* An empty table holding only the constants. */
void vars_init(VarTable* t);
/* The variable named `name`, or NULL when there is none. */
Variable* vars_lookup(VarTable* t, const char* name);
/* Sets (or creates) `name`. Returns 0, -1 when the table is full, -2 for a constant. */
int vars_set(VarTable* t, const char* name, double value);

#endif
