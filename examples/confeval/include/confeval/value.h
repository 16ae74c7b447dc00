// The typed values a config evaluates to: int, float, bool, string and arrays of values.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace confeval {

enum class Type { Int, Float, Bool, String, Array };

// "int", "float", "bool", "string", "array": the spelling used in messages and schemas.
std::string_view type_name(Type type);

class Value {
 public:
  using Array = std::vector<Value>;

  Value() : data_(std::int64_t{0}) {}
  // Any integer but bool becomes an Int, so Value(1) and Value(std::int64_t{1}) agree.
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  Value(I number) : data_(static_cast<std::int64_t>(number)) {}
  Value(double number) : data_(number) {}
  Value(bool flag) : data_(flag) {}
  Value(std::string text) : data_(std::move(text)) {}
  // Without this a string literal would silently convert to bool.
  Value(const char* text) : data_(std::string(text)) {}
  Value(Array items) : data_(std::move(items)) {}

  Type type() const { return static_cast<Type>(data_.index()); }
  bool is_int() const { return type() == Type::Int; }
  bool is_float() const { return type() == Type::Float; }
  bool is_number() const { return is_int() || is_float(); }
  bool is_bool() const { return type() == Type::Bool; }
  bool is_string() const { return type() == Type::String; }
  bool is_array() const { return type() == Type::Array; }

  // Typed access; each throws std::bad_variant_access on a type mismatch (a programming
  // error: user-facing code checks the type first and reports a located message).
  std::int64_t as_int() const { return std::get<std::int64_t>(data_); }
  double as_float() const { return std::get<double>(data_); }
  bool as_bool() const { return std::get<bool>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const Array& as_array() const { return std::get<Array>(data_); }
  // An int or a float as a double, for arithmetic that mixes the two.
  double as_number() const;

  // Strict equality: same type and same contents, so Value(1) != Value(1.0). The language's
  // `==` is looser (see operators.h).
  friend bool operator==(const Value& a, const Value& b) { return a.data_ == b.data_; }

 private:
  // The alternative order is the order of Type.
  std::variant<std::int64_t, double, bool, std::string, Array> data_;
};

// The shortest text that reads back as the same double, always with a '.' or an exponent so
// it reads back as a float and not an int ("1.0", "0.1", "1e+300").
std::string format_float(double number);

// A value as messages show it: strings quoted, arrays bracketed ("[1, \"a\"]").
std::string to_display(const Value& value);

// A value as ${...} interpolation, str() and join() insert it: strings without quotes,
// everything else as to_display().
std::string to_text(const Value& value);

}  // namespace confeval
