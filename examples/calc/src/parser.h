/* The parser: a calc line into a syntax tree.
 *
 *   line    := NAME '=' expr | expr | (empty)
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '+') unary | power
 *   power   := primary ('^' unary)?            right-associative: 2^3^2 = 2^9
 *   primary := NUMBER | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 */
#ifndef CALC_PARSER_H
#define CALC_PARSER_H

#include "lexer.h"

#define CALC_MAX_ARGS 8
#define CALC_MAX_NODES 512

typedef enum { NODE_NUMBER, NODE_VARIABLE, NODE_NEGATE, NODE_BINARY, NODE_CALL } NodeKind;

typedef struct Node {
  NodeKind kind;
  double number;              /* NODE_NUMBER */
  char name[CALC_NAME_MAX];   /* NODE_VARIABLE, NODE_CALL */
  char op;                    /* NODE_BINARY */
  int column;
  struct Node* left;          /* NODE_BINARY, NODE_NEGATE */
  struct Node* right;         /* NODE_BINARY */
  struct Node* args[CALC_MAX_ARGS];
  int argc;                   /* NODE_CALL */
} Node;

/* Nodes of one line; nothing is freed one by one. */
typedef struct {
  Node nodes[CALC_MAX_NODES];
  int used;
} Arena;

typedef struct {
  Node* expr;                   /* NULL for an empty line or on error */
  char target[CALC_NAME_MAX];   /* assignment target, "" for a plain expression */
  char error[128];              /* "" when the line parsed */
  int error_column;
} ParsedLine;

/* Parses one line. On a syntax error, `error` says what and where. */
void parse_line(const char* line, Arena* arena, ParsedLine* out);

#endif
