// The nesting bound of JSON inputs (include/dlfl/files/json_depth.h).
#include "dlfl/files/json_depth.h"

#include <algorithm>

#include "dlfl/error.h"

namespace dlfl::io {

void check_json_depth(std::string_view text, const std::string& source, std::size_t first_line,
                      std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        const auto breaks = static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
        throw Error(source, first_line + breaks, "JSON nested deeper than " + std::to_string(max_depth) + " levels");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

}  // namespace dlfl::io
