// Where a token, expression or key comes from: the file name and a 1-based line and column.
#pragma once

#include <string>

namespace confeval {

struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based; 0 means "no location", e.g. a value set from C++ code
  int column = 0;  // 1-based byte offset in the line: a tab counts as one column

  bool known() const { return line > 0; }
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

// "file:line:column", or just the file (or "<unknown>") when the position is not known.
std::string to_string(const SourceLocation& where);

// Orders by file, then line, then column, so diagnostics read top to bottom.
bool comes_before(const SourceLocation& a, const SourceLocation& b);

}  // namespace confeval
