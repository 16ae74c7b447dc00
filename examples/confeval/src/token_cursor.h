// A read position in a token vector, shared by the expression and document parsers
// (private header).
#pragma once

#include <string>
#include <vector>

#include "confeval/ast.h"
#include "confeval/error.h"
#include "confeval/token.h"

namespace confeval::detail {

class TokenCursor {
 public:
  // `tokens` ends with an End token (as tokenize() guarantees) and must outlive the cursor.
  explicit TokenCursor(const std::vector<Token>& tokens) : tokens_(tokens) {}

  const Token& peek(std::size_t ahead = 0) const {
    const std::size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  bool check(TokenKind kind) const { return peek().kind == kind; }

  const Token& next() {
    const Token& token = peek();
    if (pos_ < tokens_.size() - 1) {
      ++pos_;
    }
    return token;
  }

  bool accept(TokenKind kind) {
    if (!check(kind)) {
      return false;
    }
    next();
    return true;
  }

  // Consumes a token of `kind` or throws "expected <what>, found <token>" at the token found.
  const Token& expect(TokenKind kind, const std::string& what) {
    if (!check(kind)) {
      fail("expected " + what + ", found " + describe(peek()));
    }
    return next();
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw SyntaxError(message, peek().where);
  }

 private:
  const std::vector<Token>& tokens_;
  std::size_t pos_ = 0;
};

// One expression starting at the cursor, leaving the cursor on the first token after it.
ExprPtr parse_expression(TokenCursor& cursor);

// A dotted path of identifiers ("server.tls.port") starting at the cursor.
std::string parse_path(TokenCursor& cursor, const std::string& what);

}  // namespace confeval::detail
