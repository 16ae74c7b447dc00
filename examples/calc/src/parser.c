/* Recursive-descent parser for the grammar in parser.h. */
#include "parser.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  Lexer lx;
  Arena* arena;
  ParsedLine* out;
} Parser;

static Node* expr(Parser* p);
static Node* unary(Parser* p);

static int failed(const Parser* p) { return p->out->error[0] != '\0'; }

static Node* fail(Parser* p, const char* what, int column) {
  if (!failed(p)) {
    snprintf(p->out->error, sizeof p->out->error, "%s", what);
    p->out->error_column = column;
  }
  return NULL;
}

static Node* new_node(Parser* p, NodeKind kind, int column) {
  if (p->arena->used == CALC_MAX_NODES) return fail(p, "expression too long", column);
  Node* n = &p->arena->nodes[p->arena->used++];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->column = column;
  return n;
}

static int at_op(const Parser* p, char op) {
  return p->lx.current.kind == TOK_OP && p->lx.current.text[0] == op;
}

static Node* binary(Parser* p, char op, Node* left, Node* right, int column) {
  if (!left || !right) return NULL;
  Node* n = new_node(p, NODE_BINARY, column);
  if (!n) return NULL;
  n->op = op;
  n->left = left;
  n->right = right;
  return n;
}

static Node* call(Parser* p, const Token* name) {
  Node* n = new_node(p, NODE_CALL, name->column);
  if (!n) return NULL;
  strcpy(n->name, name->text);
  lexer_next(&p->lx); /* ( */
  if (p->lx.current.kind == TOK_RPAREN) return fail(p, "a function needs at least one argument", p->lx.current.column);
  while (1) {
    if (n->argc == CALC_MAX_ARGS) return fail(p, "too many arguments", p->lx.current.column);
    Node* arg = expr(p);
    if (!arg) return NULL;
    n->args[n->argc++] = arg;
    if (p->lx.current.kind == TOK_COMMA) {
      lexer_next(&p->lx);
      continue;
    }
    if (p->lx.current.kind != TOK_RPAREN) return fail(p, "expected ',' or ')'", p->lx.current.column);
    lexer_next(&p->lx);
    return n;
  }
}

static Node* primary(Parser* p) {
  const Token t = p->lx.current;
  switch (t.kind) {
    case TOK_NUMBER: {
      Node* n = new_node(p, NODE_NUMBER, t.column);
      if (n) n->number = t.number;
      lexer_next(&p->lx);
      return n;
    }
    case TOK_NAME: {
      lexer_next(&p->lx);
      if (p->lx.current.kind == TOK_LPAREN) return call(p, &t);
      Node* n = new_node(p, NODE_VARIABLE, t.column);
      if (n) strcpy(n->name, t.text);
      return n;
    }
    case TOK_LPAREN: {
      lexer_next(&p->lx);
      Node* inner = expr(p);
      if (!inner) return NULL;
      if (p->lx.current.kind != TOK_RPAREN) return fail(p, "expected ')'", p->lx.current.column);
      lexer_next(&p->lx);
      return inner;
    }
    case TOK_END:
      return fail(p, "unexpected end of line", t.column);
    case TOK_ERROR:
      return fail(p, "unexpected character", t.column);
    default:
      return fail(p, "expected a number, a name or '('", t.column);
  }
}

static Node* power(Parser* p) {
  Node* base = primary(p);
#if CALC_FAULT_POW_LEFT_ASSOC
  while (base && at_op(p, '^')) {
    const int column = p->lx.current.column;
    lexer_next(&p->lx);
    base = binary(p, '^', base, primary(p), column);
  }
#else
  if (base && at_op(p, '^')) {
    const int column = p->lx.current.column;
    lexer_next(&p->lx);
    return binary(p, '^', base, unary(p), column);
  }
#endif
  return base;
}

static Node* unary(Parser* p) {
  if (at_op(p, '-')) {
    const int column = p->lx.current.column;
#if !CALC_FAULT_UNARY_RECURSION
    lexer_next(&p->lx);
#endif
    Node* operand = unary(p);
    if (!operand) return NULL;
    Node* n = new_node(p, NODE_NEGATE, column);
    if (n) n->left = operand;
    return n;
  }
  if (at_op(p, '+')) {
    lexer_next(&p->lx);
    return unary(p);
  }
  return power(p);
}

static int term_op(const Parser* p) {
#if CALC_FAULT_MOD_PRECEDENCE
  return at_op(p, '*') || at_op(p, '/');
#else
  return at_op(p, '*') || at_op(p, '/') || at_op(p, '%');
#endif
}

static int expr_op(const Parser* p) {
#if CALC_FAULT_MOD_PRECEDENCE
  return at_op(p, '+') || at_op(p, '-') || at_op(p, '%');
#else
  return at_op(p, '+') || at_op(p, '-');
#endif
}

static Node* term(Parser* p) {
  Node* left = unary(p);
  while (left && term_op(p)) {
    const char op = p->lx.current.text[0];
    const int column = p->lx.current.column;
    lexer_next(&p->lx);
    left = binary(p, op, left, unary(p), column);
  }
  return left;
}

static Node* expr(Parser* p) {
  Node* left = term(p);
  while (left && expr_op(p)) {
    const char op = p->lx.current.text[0];
    const int column = p->lx.current.column;
    lexer_next(&p->lx);
    left = binary(p, op, left, term(p), column);
  }
  return left;
}

void parse_line(const char* line, Arena* arena, ParsedLine* out) {
  memset(out, 0, sizeof *out);
  arena->used = 0;
  Parser p = {.arena = arena, .out = out};
  lexer_init(&p.lx, line);
  if (p.lx.current.kind == TOK_END) return;
  /* NAME '=' starts an assignment: look one token further on a copy of the lexer. */
  if (p.lx.current.kind == TOK_NAME) {
    Lexer ahead = p.lx;
    lexer_next(&ahead);
    if (ahead.current.kind == TOK_ASSIGN) {
      strcpy(out->target, p.lx.current.text);
      lexer_next(&ahead);
      p.lx = ahead;
    }
  }
  out->expr = expr(&p);
  if (out->expr && p.lx.current.kind != TOK_END) {
    out->expr = NULL;
    fail(&p, p.lx.current.kind == TOK_ERROR ? "unexpected character" : "unexpected token", p.lx.current.column);
  }
  if (failed(&p)) out->expr = NULL;
}
