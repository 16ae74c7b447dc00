// The tokens of the config language, as the lexer produces and the parsers consume them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "confeval/source_location.h"

namespace confeval {

enum class TokenKind {
  End,         // end of input
  Newline,     // ends a statement; the lexer drops the ones inside () and []
  Identifier,  // key, section or function name
  Integer,
  Float,
  String,      // "..." (escapes and ${...} still raw in `text`) or '...' (literal)
  True,
  False,
  LeftBracket,
  RightBracket,
  LeftParen,
  RightParen,
  Comma,
  Dot,
  Assign,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  StarStar,
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  AndAnd,
  OrOr,
  Bang,
  Question,
  Colon,
  DollarBrace,  // "${" opening a reference
  RightBrace,
  At,           // starts a directive: @include
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // identifier name, raw string body, or the spelling of the token
  std::int64_t int_value = 0;
  double float_value = 0.0;
  bool interpolated = false;  // a "..." string: its body holds escapes and ${...} parts
  SourceLocation where;       // of the first character (the opening quote for strings)
};

// How messages name a kind: "'='", "identifier", "end of line"...
std::string_view token_kind_name(TokenKind kind);

// How messages name a token: the kind, plus the text for identifiers and literals.
std::string describe(const Token& token);

}  // namespace confeval
