// Splits config text into tokens with their line and column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "confeval/token.h"

namespace confeval {

// The whole text as tokens, ending with one End token. Throws SyntaxError at the offending
// character for an unknown character, a malformed number or an unterminated string.
// Comments run from '#' to the end of the line.
std::vector<Token> tokenize(std::string_view text, const std::string& file = "<input>");

}  // namespace confeval
