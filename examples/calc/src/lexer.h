/* Tokens of a calc line: numbers, names, operators, parentheses, commas and `=`. */
#ifndef CALC_LEXER_H
#define CALC_LEXER_H

#define CALC_NAME_MAX 32

typedef enum { TOK_NUMBER, TOK_NAME, TOK_OP, TOK_LPAREN, TOK_RPAREN, TOK_COMMA, TOK_ASSIGN, TOK_END, TOK_ERROR } TokenKind;

typedef struct {
  TokenKind kind;
  double number;              /* TOK_NUMBER */
  char text[CALC_NAME_MAX];   /* TOK_NAME; TOK_OP: the operator; TOK_ERROR: the bad character */
  int column;                 /* 1-based column where the token starts */
} Token;

typedef struct {
  const char* line;
  int pos;
  Token current;
} Lexer;

/* Starts reading `line` (not copied; must outlive the lexer) and reads the first token. */
void lexer_init(Lexer* lx, const char* line);
/* Reads the next token into lx->current. A `#` ends the line (comment). */
void lexer_next(Lexer* lx);

#endif
