// The nesting bound of every JSON reader of user-given files, checked on the text before a
// parser sees it: a parser builds a node per '[' or '{', so a document of nested brackets
// costs tens of times its size in memory (and a recursive one, its stack) before it fails.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dlfl::io {

// The deepest nesting of arrays and objects a JSON input may have. dlfl's formats and the
// reports it reads (coverage.py, pytest, GoogleTest, ctest) nest fewer than 10 levels; 64
// leaves room for hand-written JSON while 64 open brackets cost nothing.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Throws dlfl::Error(source, LINE, "JSON nested deeper than N levels") when `text` opens more
// than `max_depth` arrays or objects ('[' and '{' outside strings) without closing them,
// where LINE is `first_line` plus the line breaks before that bracket (a document that is
// one line of a file passes its line number). One pass, no allocation; a malformed
// document that stays within the bound is left for the parser to refuse.
void check_json_depth(std::string_view text, const std::string& source, std::size_t first_line = 1,
                      std::size_t max_depth = kMaxJsonDepth);

}  // namespace dlfl::io
