// The serializer: the inverse of parsing for evaluated configs.
#include "confeval/serializer.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "confeval/path.h"
#include "confeval/template_string.h"

namespace confeval {

namespace {

std::string hex_escape(unsigned char byte) {
  constexpr char kDigits[] = "0123456789abcdef";
  return {'\\', 'x', kDigits[byte >> 4], kDigits[byte & 0xf]};
}

// A key segment must read back as one identifier, and true/false read back as keywords.
void check_key(std::string_view path) {
  for (const std::string& segment : split_path(path)) {
    if (!is_valid_path(segment) || segment == "true" || segment == "false") {
      throw std::invalid_argument("key '" + std::string(path) +
                                  "' cannot be written: '" + segment + "' is not an identifier");
    }
  }
}

void write_section(std::string& out, std::string_view section, const Config& config) {
  const std::vector<std::string> keys = config.keys_in(section);
  if (keys.empty()) {
    return;
  }
  if (!section.empty()) {
    out += (out.empty() ? "[" : "\n[") + std::string(section) + "]\n";
  }
  for (const std::string& key : keys) {
    const std::string path = section.empty() ? key : std::string(section) + "." + key;
    check_key(path);
    out += key + " = " + serialize_value(config.at(path)) + "\n";
  }
}

}  // namespace

std::string quote_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '$':
#if CONFEVAL_FAULT_ESCAPE_DOLLAR
        out += "$";
#else
        out += "\\$";
#endif
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default: {
        const auto byte = static_cast<unsigned char>(c);
        // Other control bytes have no short escape; bytes >= 0x80 (UTF-8) pass through.
        out += byte < 0x20 || byte == 0x7f ? hex_escape(byte) : std::string(1, c);
      }
    }
  }
  return out + "\"";
}

std::string serialize_value(const Value& value) {
  switch (value.type()) {
    case Type::Int:
      // The lexer reads only non-negative literals, and 9223372036854775808 is out of range.
      if (value.as_int() == std::numeric_limits<std::int64_t>::min()) {
        return "(-9223372036854775807 - 1)";
      }
      return std::to_string(value.as_int());
    case Type::Float:
      if (!std::isfinite(value.as_float())) {
        throw std::invalid_argument("cannot write the non-finite float " +
                                    format_float(value.as_float()));
      }
      return format_float(value.as_float());
    case Type::Bool:
      return value.as_bool() ? "true" : "false";
    case Type::String:
      return quote_string(value.as_string());
    case Type::Array: {
      std::string text = "[";
      for (const Value& item : value.as_array()) {
        text += (text.size() > 1 ? ", " : "") + serialize_value(item);
      }
      return text + "]";
    }
  }
  throw std::logic_error("serialize_value: invalid Type");
}

std::string serialize(const Config& config) {
  std::string out;
  write_section(out, "", config);
  for (const std::string& section : config.sections()) {
    write_section(out, section, config);
  }
  return out;
}

}  // namespace confeval
