// Reads the raw body of a double-quoted string into literal and reference parts.
#include "confeval/template_string.h"

#include "char_class.h"
#include "confeval/error.h"

namespace confeval {

namespace {

SourceLocation offset(const SourceLocation& start, std::size_t index) {
  // Strings never span lines, so a body offset is a column offset.
  return {start.file, start.line, start.column + static_cast<int>(index)};
}

std::string_view trim_spaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// Decodes the escape whose backslash is at body[i]; returns the index after it.
std::size_t decode_escape(std::string_view body, std::size_t i, const SourceLocation& start,
                          std::string& out) {
  if (i + 1 >= body.size()) {
    throw SyntaxError("unfinished escape sequence at the end of the string", offset(start, i));
  }
  const char c = body[i + 1];
  switch (c) {
    case '\\':
    case '"':
    case '$':
      out += c;
      return i + 2;
    case 'n':
      out += '\n';
      return i + 2;
    case 't':
      out += '\t';
      return i + 2;
    case 'r':
      out += '\r';
      return i + 2;
    case 'x': {
      const int high = i + 2 < body.size() ? detail::hex_digit_value(body[i + 2]) : -1;
      const int low = i + 3 < body.size() ? detail::hex_digit_value(body[i + 3]) : -1;
      if (high < 0 || low < 0) {
        throw SyntaxError("\\x must be followed by two hexadecimal digits", offset(start, i));
      }
      out += static_cast<char>(high * 16 + low);
      return i + 4;
    }
    default:
      throw SyntaxError(std::string("unknown escape sequence '\\") + c + "'", offset(start, i));
  }
}

}  // namespace

bool is_valid_path(std::string_view path) {
  bool expect_start = true;
  for (const char c : path) {
    if (expect_start) {
      if (!detail::is_identifier_start(c)) {
        return false;
      }
      expect_start = false;
    } else if (c == '.') {
      expect_start = true;
    } else if (!detail::is_identifier_char(c)) {
      return false;
    }
  }
  return !expect_start;
}

std::vector<TemplatePart> parse_template(std::string_view body, const SourceLocation& body_start) {
  std::vector<TemplatePart> parts;
  std::string literal;
  std::size_t literal_begin = 0;
  const auto flush_literal = [&] {
    if (!literal.empty()) {
      parts.push_back({false, literal, offset(body_start, literal_begin)});
      literal.clear();
    }
  };
  std::size_t i = 0;
  while (i < body.size()) {
    if (literal.empty()) {
      literal_begin = i;
    }
    if (body[i] == '\\') {
      i = decode_escape(body, i, body_start, literal);
    } else if (body[i] == '$' && i + 1 < body.size() && body[i + 1] == '{') {
      const std::size_t close = body.find('}', i + 2);
      if (close == std::string_view::npos) {
        throw SyntaxError("unterminated '${' in string", offset(body_start, i));
      }
      const std::string_view path = trim_spaces(body.substr(i + 2, close - i - 2));
      if (path.empty()) {
        throw SyntaxError("empty '${}' in string", offset(body_start, i));
      }
      if (!is_valid_path(path)) {
        throw SyntaxError("'" + std::string(path) + "' is not a key path",
                          offset(body_start, i + 2));
      }
      flush_literal();
      parts.push_back({true, std::string(path), offset(body_start, i)});
      i = close + 1;
    } else {
      literal += body[i++];
    }
  }
  flush_literal();
  return parts;
}

}  // namespace confeval
