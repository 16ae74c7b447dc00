// One message about a place in a config file, and its rendering with the source line and a
// caret under the offending character (the style of compiler diagnostics).
#pragma once

#include <string>
#include <string_view>

#include "confeval/source_location.h"

namespace confeval {

struct Diagnostic {
  SourceLocation where;
  std::string message;
  std::string path;  // the config key concerned, when there is one (schema validation)

  friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

// The `line`-th line (1-based) of `text` without its line terminator; empty if out of range.
std::string_view source_line(std::string_view text, int line);

// "file:line:column: error: message" alone.
std::string format_diagnostic(const Diagnostic& diagnostic);

// The header above, then the source line and a caret line pointing at the column; `source` is
// the whole text of diagnostic.where.file. Falls back to the header alone when the location
// is unknown or outside the text.
std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source);

}  // namespace confeval
