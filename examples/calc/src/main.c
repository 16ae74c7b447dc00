/* calc: evaluates a script of expressions and assignments, one per line.
 *
 *   calc [FILE]        (no FILE or "-": standard input)
 *
 * Prints each expression's value, `name = value` for an assignment, nothing for blank
 * and comment lines (`#`), and `error: line L, column C: message` for a line that does
 * not parse or evaluate (the script goes on). Exit status: 0, or 1 when a line had an
 * error, 2 when the file cannot be read. */
#include <stdio.h>
#include <string.h>

#include "eval.h"
#include "format.h"
#include "parser.h"
#include "vars.h"

static int run_line(const char* line, int number, VarTable* vars, Arena* arena) {
  ParsedLine parsed;
  parse_line(line, arena, &parsed);
  if (parsed.error[0]) {
    printf("error: line %d, column %d: %s\n", number, parsed.error_column, parsed.error);
    return 1;
  }
  if (!parsed.expr) return 0;
  EvalResult result;
  evaluate(parsed.expr, vars, &result);
  if (result.error[0]) {
    printf("error: line %d, column %d: %s\n", number, result.error_column, result.error);
    return 1;
  }
  char text[64];
  format_number(result.value, text, sizeof text);
  if (!parsed.target[0]) {
    printf("%s\n", text);
    return 0;
  }
  const int set = vars_set(vars, parsed.target, result.value);
  if (set == -2) {
    printf("error: line %d, column 1: cannot assign to the constant '%s'\n", number, parsed.target);
    return 1;
  }
  if (set == -1) {
    printf("error: line %d, column 1: too many variables\n", number);
    return 1;
  }
  printf("%s = %s\n", parsed.target, text);
  return 0;
}

int main(int argc, char** argv) {
  FILE* in = stdin;
  if (argc > 1 && strcmp(argv[1], "-") != 0) {
    in = fopen(argv[1], "r");
    if (!in) {
      fprintf(stderr, "calc: cannot read %s\n", argv[1]);
      return 2;
    }
  }
  static VarTable vars;
  static Arena arena;
  vars_init(&vars);
  char line[1024];
  int number = 0, errors = 0;
  while (fgets(line, sizeof line, in)) errors += run_line(line, ++number, &vars, &arena);
  if (in != stdin) fclose(in);
  return errors ? 1 : 0;
}
