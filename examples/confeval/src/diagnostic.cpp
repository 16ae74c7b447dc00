// Renders diagnostics: a clang-style header plus the offending line and a caret.
#include "confeval/diagnostic.h"

#include <optional>

namespace confeval {

namespace {

// The `line`-th line without its terminator, or nullopt when the text has fewer lines (an
// empty line and a missing one must differ: only the first can take a caret).
std::optional<std::string_view> find_line(std::string_view text, int line) {
  if (line < 1) {
    return std::nullopt;
  }
  std::size_t begin = 0;
  for (int current = 1; current < line; ++current) {
    const std::size_t newline = text.find('\n', begin);
    if (newline == std::string_view::npos) {
      return std::nullopt;
    }
    begin = newline + 1;
  }
  std::size_t end = text.find('\n', begin);
  if (end == std::string_view::npos) {
    end = text.size();
  }
  if (end > begin && text[end - 1] == '\r') {
    --end;  // CRLF files: the '\r' is not part of what the user sees
  }
  return text.substr(begin, end - begin);
}

}  // namespace

std::string_view source_line(std::string_view text, int line) {
  return find_line(text, line).value_or(std::string_view());
}

std::string format_diagnostic(const Diagnostic& diagnostic) {
  return to_string(diagnostic.where) + ": error: " + diagnostic.message;
}

std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source) {
  std::string text = format_diagnostic(diagnostic);
  const SourceLocation& where = diagnostic.where;
  if (!where.known()) {
    return text;
  }
  const std::optional<std::string_view> found = find_line(source, where.line);
  // A caret one past the last character is legitimate: it points at a missing token.
  if (!found || where.column < 1 || static_cast<std::size_t>(where.column) > found->size() + 1) {
    return text;
  }
  const std::string_view line = *found;
  text += "\n  ";
  text += line;
  text += "\n  ";
  // Copy tabs from the source line so the caret lines up whatever the terminal's tab width.
#if CONFEVAL_FAULT_CARET_COLUMN
  const auto indent = static_cast<std::size_t>(where.column);
#else
  const auto indent = static_cast<std::size_t>(where.column - 1);
#endif
  for (std::size_t i = 0; i < indent && i < line.size(); ++i) {
    text += line[i] == '\t' ? '\t' : ' ';
  }
  text += '^';
  return text;
}

}  // namespace confeval
