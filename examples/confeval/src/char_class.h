// Character classes shared by the lexer and the string-template reader (private header).
#pragma once

namespace confeval::detail {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

inline bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

inline bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }

// The value of a hexadecimal digit in either case, or -1. Defined in lexer.cpp.
int hex_digit_value(char c);

}  // namespace confeval::detail
