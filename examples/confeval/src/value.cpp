// Value helpers: type names, numeric promotion and display text.
#include "confeval/value.h"

#include <charconv>
#include <stdexcept>

namespace confeval {

std::string_view type_name(Type type) {
  switch (type) {
    case Type::Int:
      return "int";
    case Type::Float:
      return "float";
    case Type::Bool:
      return "bool";
    case Type::String:
      return "string";
    case Type::Array:
      return "array";
  }
  throw std::logic_error("type_name: invalid Type");
}

double Value::as_number() const {
  return is_int() ? static_cast<double>(as_int()) : as_float();
}

std::string format_float(double number) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".en") == std::string::npos) {  // 'n': inf and nan stay as they are
    text += ".0";
  }
  return text;
}

std::string to_display(const Value& value) {
  switch (value.type()) {
    case Type::Int:
      return std::to_string(value.as_int());
    case Type::Float:
      return format_float(value.as_float());
    case Type::Bool:
      return value.as_bool() ? "true" : "false";
    case Type::String:
      return "\"" + value.as_string() + "\"";
    case Type::Array: {
      std::string text = "[";
      for (const Value& item : value.as_array()) {
        text += (text.size() > 1 ? ", " : "") + to_display(item);
      }
      return text + "]";
    }
  }
  throw std::logic_error("to_display: invalid Type");
}

std::string to_text(const Value& value) {
  return value.is_string() ? value.as_string() : to_display(value);
}

}  // namespace confeval
