// Writes a Config back as config text that parses to an equal Config.
#pragma once

#include <string>
#include <string_view>

#include "confeval/config.h"
#include "confeval/value.h"

namespace confeval {

// Canonical text: top-level keys first, then one [section] per parent path in order of
// first appearance, each key as `name = literal`. For every config C built by parsing,
// parse_config(serialize(C)) == C. Throws std::invalid_argument for what the language
// cannot spell: a non-finite float, or a key segment that is not an identifier.
std::string serialize(const Config& config);

// A value as a literal: ints and floats as written by format_float, strings double-quoted
// with escapes (including \$ so nothing reads back as an interpolation), arrays bracketed.
std::string serialize_value(const Value& value);

// `text` as a double-quoted string literal.
std::string quote_string(std::string_view text);

}  // namespace confeval
