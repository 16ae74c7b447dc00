// Validation of a Config against a schema of rules: types, ranges, allowed values, required
// and unknown keys.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "confeval/config.h"
#include "confeval/diagnostic.h"
#include "confeval/value.h"

namespace confeval {

// Float accepts ints too, as arithmetic does: `ratio = 1` is a valid float setting.
enum class SchemaType { Any, Int, Float, Bool, String, Array };

// "any", "int", "float", "bool", "string", "array".
std::string_view schema_type_name(SchemaType type);
std::optional<SchemaType> schema_type_from_name(std::string_view name);

// Whether `value` is acceptable where `type` is expected.
bool matches_type(SchemaType type, const Value& value);

struct Rule {
  std::string pattern;  // a key path; a "*" segment matches any one segment (see path.h)
  SchemaType type = SchemaType::Any;
  bool required = false;  // for a wildcard pattern: at least one key must match
  // Bounds, inclusive: on the value of a number, on the length of a string or an array.
  std::optional<double> min;
  std::optional<double> max;
  std::vector<Value> one_of;  // when not empty, the value must loosely equal one of these
  SchemaType element_type = SchemaType::Any;  // for arrays: the type of every element
};

class Schema {
 public:
  Schema& add(Rule rule);
  // By default keys no rule matches are accepted; a closed schema reports them.
  Schema& allow_unknown_keys(bool allow);

  const std::vector<Rule>& rules() const { return rules_; }
  bool allows_unknown_keys() const { return allow_unknown_; }

  // Every problem found, not just the first, ordered by the location of the offending key
  // (missing keys, which have none, last). Each diagnostic names the key in `path`. Every
  // rule matching a key applies to it.
  std::vector<Diagnostic> validate(const Config& config) const;

 private:
  std::vector<Rule> rules_;
  bool allow_unknown_ = true;
};

}  // namespace confeval
