// Double-quoted strings: escape sequences and ${section.key} interpolation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "confeval/source_location.h"

namespace confeval {

// A piece of a double-quoted string: literal text (escapes decoded) or a reference.
struct TemplatePart {
  bool is_reference = false;
  std::string text;  // the decoded text, or the dotted path of the reference
  SourceLocation where;

  friend bool operator==(const TemplatePart&, const TemplatePart&) = default;
};

// Splits the raw body of a "..." string into parts; `body_start` is the location of the
// body's first character (one past the opening quote). Adjacent literal text is merged into
// one part and an empty body gives no parts. Escapes: \\ \" \n \t \r \$ \xHH; a '$' not
// followed by '{' is literal. Throws SyntaxError at the offending character.
std::vector<TemplatePart> parse_template(std::string_view body, const SourceLocation& body_start);

// True when `path` is one or more identifiers joined by dots ("server.port").
bool is_valid_path(std::string_view path);

}  // namespace confeval
