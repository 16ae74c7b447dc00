/* The lexer: one token of lookahead over a NUL-terminated line. */
#include "lexer.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void lexer_init(Lexer* lx, const char* line) {
  lx->line = line;
  lx->pos = 0;
  lexer_next(lx);
}

static int scan_number(Lexer* lx, Token* t) {
  const char* start = lx->line + lx->pos;
  const char* p = start;
  while (isdigit((unsigned char)*p)) ++p;
  if (*p == '.') {
    ++p;
    while (isdigit((unsigned char)*p)) ++p;
  }
  if (*p == 'e' || *p == 'E') {
    const char* exponent = p + 1;
#if CALC_FAULT_EXPONENT_SIGN
    if (*exponent == '+') ++exponent;
#else
    if (*exponent == '+' || *exponent == '-') ++exponent;
#endif
    if (isdigit((unsigned char)*exponent)) {
      p = exponent;
      while (isdigit((unsigned char)*p)) ++p;
    }
  }
  if (p == start || (p == start + 1 && *start == '.')) return 0;
  char buffer[64];
  size_t length = (size_t)(p - start);
  if (length >= sizeof buffer) length = sizeof buffer - 1;
  memcpy(buffer, start, length);
  buffer[length] = '\0';
  t->kind = TOK_NUMBER;
  t->number = strtod(buffer, NULL);
  lx->pos += (int)(p - start);
  return 1;
}

static void scan_name(Lexer* lx, Token* t) {
  int n = 0;
  while (isalnum((unsigned char)lx->line[lx->pos]) || lx->line[lx->pos] == '_') {
    if (n < CALC_NAME_MAX - 1) t->text[n++] = lx->line[lx->pos];
    ++lx->pos;
  }
  t->text[n] = '\0';
  t->kind = TOK_NAME;
}

void lexer_next(Lexer* lx) {
  Token* t = &lx->current;
  memset(t, 0, sizeof *t);
  while (lx->line[lx->pos] == ' ' || lx->line[lx->pos] == '\t' || lx->line[lx->pos] == '\r') ++lx->pos;
  t->column = lx->pos + 1;
  const char c = lx->line[lx->pos];
  if (c == '\0' || c == '\n' || c == '#') {
    t->kind = TOK_END;
    return;
  }
  if (isdigit((unsigned char)c) || c == '.') {
    if (scan_number(lx, t)) return;
  } else if (isalpha((unsigned char)c) || c == '_') {
    scan_name(lx, t);
    return;
  }
  t->text[0] = c;
  ++lx->pos;
  switch (c) {
    case '+': case '-': case '*': case '/': case '%': case '^':
      t->kind = TOK_OP;
      break;
    case '(':
      t->kind = TOK_LPAREN;
      break;
    case ')':
      t->kind = TOK_RPAREN;
      break;
    case ',':
      t->kind = TOK_COMMA;
      break;
    case '=':
      t->kind = TOK_ASSIGN;
      break;
    default:
      t->kind = TOK_ERROR;
      break;
  }
}
