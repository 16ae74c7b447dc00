// Schema validation: each key checked against each rule matching it, then required keys.
#include "confeval/schema.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "confeval/operators.h"
#include "confeval/path.h"

namespace confeval {

namespace {

struct NamedType {
  std::string_view name;
  SchemaType type;
};

constexpr NamedType kSchemaTypes[] = {
    {"any", SchemaType::Any},       {"int", SchemaType::Int},       {"float", SchemaType::Float},
    {"bool", SchemaType::Bool},     {"string", SchemaType::String}, {"array", SchemaType::Array},
};

// Integral bounds print as integers ("65535", not "65535.0"): they were written as such.
std::string format_bound(double bound) {
  if (std::trunc(bound) == bound && std::fabs(bound) < 1e15) {
    return std::to_string(static_cast<long long>(bound));
  }
  return format_float(bound);
}

class Validator {
 public:
  explicit Validator(std::vector<Diagnostic>& out) : out_(out) {}

  void check(const Rule& rule, const ConfigEntry& entry) {
    const Value& value = entry.value;
    if (!matches_type(rule.type, value)) {
      report(entry, "expected " + std::string(schema_type_name(rule.type)) + ", found " +
                        std::string(type_name(value.type())));
      return;  // the other checks assume the type
    }
    check_bounds(rule, entry);
    if (!rule.one_of.empty() && std::none_of(rule.one_of.begin(), rule.one_of.end(),
                                             [&](const Value& allowed) {
                                               return loosely_equal(allowed, value);
                                             })) {
      std::string allowed;
      for (const Value& v : rule.one_of) {
        allowed += (allowed.empty() ? "" : ", ") + to_display(v);
      }
      report(entry, to_display(value) + " is not one of " + allowed);
    }
    if (value.is_array() && rule.element_type != SchemaType::Any) {
      const Value::Array& items = value.as_array();
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (!matches_type(rule.element_type, items[i])) {
          report(entry, "element " + std::to_string(i) + " must be " +
                            std::string(schema_type_name(rule.element_type)) + ", not " +
                            std::string(type_name(items[i].type())));
        }
      }
    }
  }

  void report(const ConfigEntry& entry, const std::string& message) {
    out_.push_back({entry.where, entry.path + ": " + message, entry.path});
  }

 private:
  void check_bounds(const Rule& rule, const ConfigEntry& entry) {
    const Value& value = entry.value;
    double measure = 0.0;
    std::string what;
    if (value.is_number()) {
      measure = value.as_number();
      what = to_display(value);
    } else if (value.is_string() || value.is_array()) {
      measure = static_cast<double>(value.is_string() ? value.as_string().size()
                                                      : value.as_array().size());
      what = "length " + format_bound(measure);
    } else {
      return;  // bools have no order
    }
    if (rule.min && measure < *rule.min) {
      report(entry, what + " is below the minimum " + format_bound(*rule.min));
    }
    if (rule.max && measure > *rule.max) {
      report(entry, what + " is above the maximum " + format_bound(*rule.max));
    }
  }

  std::vector<Diagnostic>& out_;
};

}  // namespace

std::string_view schema_type_name(SchemaType type) {
  for (const NamedType& named : kSchemaTypes) {
    if (named.type == type) {
      return named.name;
    }
  }
  throw std::logic_error("schema_type_name: invalid SchemaType");
}

std::optional<SchemaType> schema_type_from_name(std::string_view name) {
  for (const NamedType& named : kSchemaTypes) {
    if (named.name == name) {
      return named.type;
    }
  }
  return std::nullopt;
}

bool matches_type(SchemaType type, const Value& value) {
  switch (type) {
    case SchemaType::Any:
      return true;
    case SchemaType::Int:
      return value.is_int();
    case SchemaType::Float:
#if CONFEVAL_FAULT_FLOAT_ACCEPTS_INT
      return value.is_float();
#else
      return value.is_number();
#endif
    case SchemaType::Bool:
      return value.is_bool();
    case SchemaType::String:
      return value.is_string();
    case SchemaType::Array:
      return value.is_array();
  }
  throw std::logic_error("matches_type: invalid SchemaType");
}

Schema& Schema::add(Rule rule) {
  rules_.push_back(std::move(rule));
  return *this;
}

Schema& Schema::allow_unknown_keys(bool allow) {
  allow_unknown_ = allow;
  return *this;
}

std::vector<Diagnostic> Schema::validate(const Config& config) const {
  std::vector<Diagnostic> found;
  Validator validator(found);
  for (const ConfigEntry& entry : config.entries()) {
    bool matched = false;
    for (const Rule& rule : rules_) {
      if (path_matches(rule.pattern, entry.path)) {
        matched = true;
        validator.check(rule, entry);
      }
    }
    if (!matched && !allow_unknown_) {
      validator.report(entry, "unknown key");
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.where.known() && (!b.where.known() || comes_before(a.where, b.where));
  });
  for (const Rule& rule : rules_) {
    const bool present = std::any_of(
        config.entries().begin(), config.entries().end(),
        [&](const ConfigEntry& entry) { return path_matches(rule.pattern, entry.path); });
    if (rule.required && !present) {
      found.push_back({{}, "missing required key '" + rule.pattern + "'", rule.pattern});
    }
  }
  return found;
}

}  // namespace confeval
