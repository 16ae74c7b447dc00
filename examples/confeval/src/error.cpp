// Error construction and source-location formatting shared by every stage.
#include "confeval/error.h"

#include <tuple>
#include <utility>

namespace confeval {

std::string to_string(const SourceLocation& where) {
  std::string text = where.file.empty() ? "<unknown>" : where.file;
  if (where.known()) {
    text += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  }
  return text;
}

bool comes_before(const SourceLocation& a, const SourceLocation& b) {
  return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
}

Error::Error(std::string message, SourceLocation where)
    : std::runtime_error(to_string(where) + ": " + message),
      message_(std::move(message)),
      where_(std::move(where)) {}

}  // namespace confeval
