// A parsed config file: its assignments and @include directives in source order.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "confeval/ast.h"
#include "confeval/source_location.h"

namespace confeval {

// `key = value` under the current [section]. The key may itself be dotted (`tls.port = 1`).
struct Assignment {
  std::string section;  // "" at the top of a file, "server.tls" under [server.tls]
  std::string key;      // as written: "port" or "tls.port"
  ExprPtr value;
  SourceLocation where;  // of the key

  // The absolute key path: section and key joined by '.'.
  std::string path() const { return section.empty() ? key : section + "." + key; }
};

// `@include "other.conf"`: the target is resolved relative to the including file.
struct Include {
  std::string target;
  SourceLocation where;  // of the '@'
};

using Statement = std::variant<Assignment, Include>;

struct Document {
  std::string file;
  std::vector<Statement> statements;
};

// Parses one file without following its includes (see loader.h). Grammar, one statement a
// line, blank lines and comments anywhere:
//   [section.path]          starts a section (until the next header)
//   key.path = expression   an assignment
//   @include "file"         includes another file
// Throws SyntaxError at the first error.
Document parse_document(std::string_view text, const std::string& file = "<input>");

}  // namespace confeval
