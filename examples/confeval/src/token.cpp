// Names of token kinds for syntax-error messages.
#include "confeval/token.h"

#include <stdexcept>

namespace confeval {

std::string_view token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::End: return "end of input";
    case TokenKind::Newline: return "end of line";
    case TokenKind::Identifier: return "identifier";
    case TokenKind::Integer: return "integer";
    case TokenKind::Float: return "float";
    case TokenKind::String: return "string";
    case TokenKind::True: return "'true'";
    case TokenKind::False: return "'false'";
    case TokenKind::LeftBracket: return "'['";
    case TokenKind::RightBracket: return "']'";
    case TokenKind::LeftParen: return "'('";
    case TokenKind::RightParen: return "')'";
    case TokenKind::Comma: return "','";
    case TokenKind::Dot: return "'.'";
    case TokenKind::Assign: return "'='";
    case TokenKind::Plus: return "'+'";
    case TokenKind::Minus: return "'-'";
    case TokenKind::Star: return "'*'";
    case TokenKind::Slash: return "'/'";
    case TokenKind::Percent: return "'%'";
    case TokenKind::StarStar: return "'**'";
    case TokenKind::Equal: return "'=='";
    case TokenKind::NotEqual: return "'!='";
    case TokenKind::Less: return "'<'";
    case TokenKind::LessEqual: return "'<='";
    case TokenKind::Greater: return "'>'";
    case TokenKind::GreaterEqual: return "'>='";
    case TokenKind::AndAnd: return "'&&'";
    case TokenKind::OrOr: return "'||'";
    case TokenKind::Bang: return "'!'";
    case TokenKind::Question: return "'?'";
    case TokenKind::Colon: return "':'";
    case TokenKind::DollarBrace: return "'${'";
    case TokenKind::RightBrace: return "'}'";
    case TokenKind::At: return "'@'";
  }
  throw std::logic_error("token_kind_name: invalid TokenKind");
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::Identifier:
      return "identifier '" + token.text + "'";
    case TokenKind::Integer:
    case TokenKind::Float:
      return std::string(token_kind_name(token.kind)) + " " + token.text;
    case TokenKind::String:
      return "string";
    default:
      return std::string(token_kind_name(token.kind));
  }
}

}  // namespace confeval
