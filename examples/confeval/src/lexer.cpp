// The lexer: text to tokens, tracking line and column for every token.
#include "confeval/lexer.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>

#include "char_class.h"
#include "confeval/error.h"

namespace confeval {

namespace detail {

int hex_digit_value(char c) {
  if (is_digit(c)) {
    return c - '0';
  }
  const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (lower >= 'a' && lower <= 'f') {
#if CONFEVAL_FAULT_HEX_DIGIT_VALUE
    return lower - 'a' + 9;
#else
    return lower - 'a' + 10;
#endif
  }
  return -1;
}

}  // namespace detail

namespace {

using detail::hex_digit_value;
using detail::is_digit;
using detail::is_identifier_char;
using detail::is_identifier_start;

struct Punctuation {
  std::string_view spelling;
  TokenKind kind;
};

// Two-character spellings first: the lexer takes the longest match.
constexpr Punctuation kPunctuation[] = {
    {"**", TokenKind::StarStar},    {"==", TokenKind::Equal},       {"!=", TokenKind::NotEqual},
    {"<=", TokenKind::LessEqual},   {">=", TokenKind::GreaterEqual}, {"&&", TokenKind::AndAnd},
    {"||", TokenKind::OrOr},        {"${", TokenKind::DollarBrace}, {"[", TokenKind::LeftBracket},
    {"]", TokenKind::RightBracket}, {"(", TokenKind::LeftParen},    {")", TokenKind::RightParen},
    {",", TokenKind::Comma},        {".", TokenKind::Dot},          {"=", TokenKind::Assign},
    {"+", TokenKind::Plus},         {"-", TokenKind::Minus},        {"*", TokenKind::Star},
    {"/", TokenKind::Slash},        {"%", TokenKind::Percent},      {"<", TokenKind::Less},
    {">", TokenKind::Greater},      {"!", TokenKind::Bang},         {"?", TokenKind::Question},
    {":", TokenKind::Colon},        {"}", TokenKind::RightBrace},   {"@", TokenKind::At},
};

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<Token> run() {
    while (true) {
      skip_blanks_and_comments();
      if (at_end()) {
        break;
      }
      const char c = peek();
      if (c == '\n') {
        const SourceLocation where = here();
        advance();
        // Inside () and [] a value may span lines, so line ends there are not statement ends.
        if (depth_ == 0) {
          tokens_.push_back({TokenKind::Newline, "\n", 0, 0.0, false, where});
        }
      } else if (is_digit(c)) {
        tokens_.push_back(lex_number());
      } else if (is_identifier_start(c)) {
        tokens_.push_back(lex_identifier());
      } else if (c == '"' || c == '\'') {
        tokens_.push_back(lex_string(c));
      } else {
        tokens_.push_back(lex_punctuation());
      }
    }
    tokens_.push_back({TokenKind::End, "", 0, 0.0, false, here()});
    return std::move(tokens_);
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  SourceLocation here() const { return {file_, line_, column_}; }

  char advance() {
    const char c = text_[pos_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }

  [[noreturn]] void fail(const std::string& message, const SourceLocation& where) const {
    throw SyntaxError(message, where);
  }

  void skip_blanks_and_comments() {
    while (!at_end()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\r') {
        advance();
      } else if (c == '#') {
        while (!at_end() && peek() != '\n') {
          advance();
        }
      } else {
        return;
      }
    }
  }

  // Digits of one radix with '_' allowed between two digits ("1_000"), separators dropped.
  std::string take_digits(bool hex) {
    std::string digits;
    while (true) {
      const char c = peek();
      if (hex ? hex_digit_value(c) >= 0 : is_digit(c)) {
        digits += advance();
      } else if (c == '_' && !digits.empty() &&
                 (hex ? hex_digit_value(peek(1)) >= 0 : is_digit(peek(1)))) {
        advance();
      } else {
        return digits;
      }
    }
  }

  Token lex_number() {
    const SourceLocation start = here();
    const std::size_t begin = pos_;
    Token token{TokenKind::Integer, "", 0, 0.0, false, start};
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      advance();
      advance();
      token.int_value = hex_value(take_digits(true), start);
    } else {
      std::string digits = take_digits(false);
      if (peek() == '.' && is_digit(peek(1))) {
        token.kind = TokenKind::Float;
        digits += advance();
        digits += take_digits(false);
      }
      if (peek() == 'e' || peek() == 'E') {
        const bool sign = peek(1) == '+' || peek(1) == '-';
        if (!is_digit(peek(sign ? 2 : 1))) {
          fail("malformed exponent in number", here());
        }
        token.kind = TokenKind::Float;
        digits += advance();
        if (sign) {
          digits += advance();
        }
        digits += take_digits(false);
      }
      if (token.kind == TokenKind::Float) {
        token.float_value = float_value(digits, start);
      } else {
        token.int_value = decimal_value(digits, start);
      }
    }
    if (is_identifier_char(peek())) {
      fail(std::string("unexpected character '") + peek() + "' after number", here());
    }
    token.text = std::string(text_.substr(begin, pos_ - begin));
    return token;
  }

  std::int64_t decimal_value(const std::string& digits, const SourceLocation& start) const {
    // "007" would read as octal in C; refusing it avoids guessing what the user meant.
    if (digits.size() > 1 && digits[0] == '0') {
      fail("leading zeros are not allowed in integer '" + digits + "'", start);
    }
    std::int64_t value = 0;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (result.ec == std::errc::result_out_of_range) {
      fail("integer literal '" + digits + "' is out of range", start);
    }
    return value;
  }

  std::int64_t hex_value(const std::string& digits, const SourceLocation& start) const {
    if (digits.empty()) {
      fail("expected hexadecimal digits after '0x'", start);
    }
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::int64_t value = 0;
    for (const char c : digits) {
      const int digit = hex_digit_value(c);
      if (value > (kMax - digit) / 16) {
        fail("integer literal '0x" + digits + "' is out of range", start);
      }
      value = value * 16 + digit;
    }
    return value;
  }

  double float_value(const std::string& digits, const SourceLocation& start) const {
    double value = 0.0;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (result.ec == std::errc::result_out_of_range) {
      fail("float literal '" + digits + "' is out of range", start);
    }
    return value;
  }

  Token lex_identifier() {
    const SourceLocation start = here();
    std::string name;
    while (is_identifier_char(peek())) {
      name += advance();
    }
    TokenKind kind = TokenKind::Identifier;
    if (name == "true") {
      kind = TokenKind::True;
    } else if (name == "false") {
      kind = TokenKind::False;
    }
    return {kind, name, 0, 0.0, false, start};
  }

  // Keeps a "..." body raw: escapes and ${...} are decoded by template_string.cpp, which
  // needs their columns. Only \" must be understood here, to find the closing quote.
  Token lex_string(char quote) {
    const SourceLocation start = here();
    advance();
    std::string body;
    while (true) {
      if (at_end() || peek() == '\n') {
        fail("unterminated string", start);
      }
      const char c = advance();
      if (c == quote) {
        break;
      }
      body += c;
      if (c == '\\' && quote == '"' && !at_end() && peek() != '\n') {
        body += advance();
      }
    }
    return {TokenKind::String, body, 0, 0.0, quote == '"', start};
  }

  Token lex_punctuation() {
    const SourceLocation start = here();
    for (const Punctuation& p : kPunctuation) {
      if (text_.substr(pos_, p.spelling.size()) == p.spelling) {
        for (std::size_t i = 0; i < p.spelling.size(); ++i) {
          advance();
        }
        if (p.kind == TokenKind::LeftBracket || p.kind == TokenKind::LeftParen) {
          ++depth_;
        } else if ((p.kind == TokenKind::RightBracket || p.kind == TokenKind::RightParen) &&
                   depth_ > 0) {
          --depth_;
        }
        return {p.kind, std::string(p.spelling), 0, 0.0, false, start};
      }
    }
    const char c = peek();
    if (c == '&' || c == '|') {
      fail(std::string("unexpected character '") + c + "'; did you mean '" + c + c + "'?", start);
    }
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      fail("unexpected byte 0x" + hex_byte(c), start);
    }
    fail(std::string("unexpected character '") + c + "'", start);
  }

  static std::string hex_byte(char c) {
    constexpr char kDigits[] = "0123456789abcdef";
    const auto byte = static_cast<unsigned char>(c);
    return {kDigits[byte >> 4], kDigits[byte & 0xf]};
  }

  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  int depth_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text, const std::string& file) {
  return Lexer(text, file).run();
}

}  // namespace confeval
