/* The variable table: linear search, a few dozen names at most. */
#include "vars.h"

#include <string.h>

static const char* const kConstants[] = {"pi", "e"};

static int is_constant(const char* name) {
  for (size_t i = 0; i < sizeof kConstants / sizeof kConstants[0]; ++i)
    if (strcmp(kConstants[i], name) == 0) return 1;
  return 0;
}

void vars_init(VarTable* t) {
  t->count = 0;
  strcpy(t->vars[t->count].name, "pi");
  t->vars[t->count++].value = 3.14159265358979323846;
  strcpy(t->vars[t->count].name, "e");
  t->vars[t->count++].value = 2.71828182845904523536;
}

Variable* vars_lookup(VarTable* t, const char* name) {
  for (int i = 0; i < t->count; ++i)
    if (strcmp(t->vars[i].name, name) == 0) return &t->vars[i];
  return NULL;
}

int vars_set(VarTable* t, const char* name, double value) {
  if (is_constant(name)) return -2;
  Variable* v = vars_lookup(t, name);
  if (!v) {
    if (t->count == CALC_MAX_VARS) return -1;
    v = &t->vars[t->count++];
    strcpy(v->name, name);
  }
  v->value = value;
  return 0;
}
