// Parses expressions: literals, references, arrays, calls, and operators with precedence.
#pragma once

#include <string>
#include <string_view>

#include "confeval/ast.h"

namespace confeval {

// Precedence, loosest first (all binary operators are left-associative except `**`):
//   ?:   ||   &&   == !=   < <= > >= (not chainable)   + -   * / %   unary - !   **   [] ()
// Like Python, `-2 ** 2` is -(2 ** 2) and `2 ** -1` is allowed.
int binary_precedence(BinaryOp op);

// Parses `text` as exactly one expression (used by tests and tools); throws SyntaxError.
ExprPtr parse_expression(std::string_view text, const std::string& file = "<expr>");

}  // namespace confeval
