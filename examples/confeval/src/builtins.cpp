// Builtin functions, dispatched through a table of name, arity and implementation.
#include "confeval/builtins.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "confeval/error.h"
#include "confeval/operators.h"

namespace confeval {

namespace {

using Arguments = std::vector<Value>;

// What an implementation needs to report a located, named error.
struct CallContext {
  std::string_view name;
  const SourceLocation& where;

  [[noreturn]] void fail(const std::string& message) const {
    throw EvalError(std::string(name) + ": " + message, where);
  }

  void require(const Value& value, bool ok, std::string_view expected, int position) const {
    if (!ok) {
      fail("argument " + std::to_string(position) + " must be " + std::string(expected) +
           ", not " + std::string(type_name(value.type())));
    }
  }
};

Value builtin_len(const Arguments& args, const CallContext& call) {
  const Value& x = args[0];
  call.require(x, x.is_string() || x.is_array(), "a string or an array", 1);
  return Value(x.is_string() ? x.as_string().size() : x.as_array().size());
}

// min and max share everything but the direction of the comparison.
Value extremum(const Arguments& args, const CallContext& call, BinaryOp better) {
  const Arguments& candidates = args.size() == 1 && args[0].is_array() ? args[0].as_array() : args;
  if (candidates.empty()) {
    call.fail("needs at least one value");
  }
  Value best = candidates[0];
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Value& v = candidates[i];
    call.require(v, v.is_number() || v.is_string(), "a number or a string",
                 static_cast<int>(i) + 1);
    // apply_binary rejects a number compared with a string, at the call.
    if (apply_binary(better, v, best, call.where).as_bool()) {
      best = v;
    }
  }
  return best;
}

Value builtin_min(const Arguments& args, const CallContext& call) {
  return extremum(args, call, BinaryOp::Lt);
}

Value builtin_max(const Arguments& args, const CallContext& call) {
  return extremum(args, call, BinaryOp::Gt);
}

Value builtin_abs(const Arguments& args, const CallContext& call) {
  const Value& x = args[0];
  call.require(x, x.is_number(), "a number", 1);
  if (x.is_float()) {
    return Value(std::fabs(x.as_float()));
  }
  return x.as_int() < 0 ? apply_unary(UnaryOp::Negate, x, call.where) : x;
}

Value builtin_int(const Arguments& args, const CallContext& call) {
  const Value& x = args[0];
  switch (x.type()) {
    case Type::Int:
      return x;
    case Type::Bool:
      return Value(x.as_bool() ? 1 : 0);
    case Type::Float: {
      const double truncated = std::trunc(x.as_float());
      // 2^63 is exactly representable; every double below it in magnitude fits an int64.
      if (!(std::fabs(truncated) < 9223372036854775808.0)) {
        call.fail(format_float(x.as_float()) + " does not fit an int");
      }
      return Value(static_cast<std::int64_t>(truncated));
    }
    case Type::String: {
      const std::string& s = x.as_string();
      std::int64_t value = 0;
      const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
      if (s.empty() || result.ec != std::errc() || result.ptr != s.data() + s.size()) {
        call.fail("\"" + s + "\" is not a decimal integer");
      }
      return Value(value);
    }
    case Type::Array:
      break;
  }
  call.fail("cannot convert an array to int");
}

Value builtin_float(const Arguments& args, const CallContext& call) {
  const Value& x = args[0];
  if (x.is_number()) {
    return Value(x.as_number());
  }
  call.require(x, x.is_string(), "a number or a string", 1);
  const std::string& s = x.as_string();
  double value = 0.0;
  const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || result.ec != std::errc() || result.ptr != s.data() + s.size() ||
      !std::isfinite(value)) {
    call.fail("\"" + s + "\" is not a decimal number");
  }
  return Value(value);
}

Value builtin_str(const Arguments& args, const CallContext&) { return Value(to_text(args[0])); }

Value map_ascii(const Arguments& args, const CallContext& call, bool upper) {
  call.require(args[0], args[0].is_string(), "a string", 1);
  std::string s = args[0].as_string();
  for (char& c : s) {
    if (upper && c >= 'a' && c <= 'z') {
      c = static_cast<char>(c - 'a' + 'A');
    } else if (!upper && c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return Value(std::move(s));
}

Value builtin_lower(const Arguments& args, const CallContext& call) {
  return map_ascii(args, call, false);
}

Value builtin_upper(const Arguments& args, const CallContext& call) {
  return map_ascii(args, call, true);
}

Value builtin_join(const Arguments& args, const CallContext& call) {
  call.require(args[0], args[0].is_array(), "an array", 1);
  call.require(args[1], args[1].is_string(), "a string", 2);
  std::string text;
  bool first = true;
  for (const Value& item : args[0].as_array()) {
    if (!first) {
      text += args[1].as_string();
    }
    text += to_text(item);
    first = false;
  }
  return Value(std::move(text));
}

Value builtin_contains(const Arguments& args, const CallContext& call) {
  const Value& haystack = args[0];
  if (haystack.is_string()) {
    call.require(args[1], args[1].is_string(), "a string", 2);
    return Value(haystack.as_string().find(args[1].as_string()) != std::string::npos);
  }
  call.require(haystack, haystack.is_array(), "an array or a string", 1);
  const Value::Array& items = haystack.as_array();
  return Value(std::any_of(items.begin(), items.end(),
                           [&](const Value& item) { return loosely_equal(item, args[1]); }));
}

Value builtin_clamp(const Arguments& args, const CallContext& call) {
  for (int i = 0; i < 3; ++i) {
    call.require(args[static_cast<std::size_t>(i)], args[static_cast<std::size_t>(i)].is_number(),
                 "a number", i + 1);
  }
  const Value& lo = args[1];
  const Value& hi = args[2];
  if (apply_binary(BinaryOp::Gt, lo, hi, call.where).as_bool()) {
    call.fail("lower bound " + to_display(lo) + " is above upper bound " + to_display(hi));
  }
  if (apply_binary(BinaryOp::Lt, args[0], lo, call.where).as_bool()) {
    return lo;
  }
  if (apply_binary(BinaryOp::Gt, args[0], hi, call.where).as_bool()) {
    return hi;
  }
  return args[0];
}

struct Builtin {
  std::string_view name;
  std::size_t min_arguments;
  std::size_t max_arguments;
  Value (*call)(const Arguments&, const CallContext&);
};

constexpr std::size_t kVariadic = std::numeric_limits<std::size_t>::max();

// Alphabetical, so builtin_names() can return the table order.
constexpr Builtin kBuiltins[] = {
    {"abs", 1, 1, builtin_abs},           {"clamp", 3, 3, builtin_clamp},
    {"contains", 2, 2, builtin_contains}, {"float", 1, 1, builtin_float},
    {"int", 1, 1, builtin_int},           {"join", 2, 2, builtin_join},
    {"len", 1, 1, builtin_len},           {"lower", 1, 1, builtin_lower},
    {"max", 1, kVariadic, builtin_max},   {"min", 1, kVariadic, builtin_min},
    {"str", 1, 1, builtin_str},           {"upper", 1, 1, builtin_upper},
};

const Builtin* find_builtin(std::string_view name) {
  for (const Builtin& builtin : kBuiltins) {
    if (builtin.name == name) {
      return &builtin;
    }
  }
  return nullptr;
}

std::string arity_text(const Builtin& builtin) {
  if (builtin.max_arguments == kVariadic) {
    return "at least " + std::to_string(builtin.min_arguments);
  }
  return std::to_string(builtin.min_arguments);
}

}  // namespace

bool is_builtin(std::string_view name) { return find_builtin(name) != nullptr; }

std::vector<std::string_view> builtin_names() {
  std::vector<std::string_view> names;
  for (const Builtin& builtin : kBuiltins) {
    names.push_back(builtin.name);
  }
  return names;
}

Value call_builtin(std::string_view name, const std::vector<Value>& arguments,
                   const SourceLocation& where) {
  const Builtin* builtin = find_builtin(name);
  if (builtin == nullptr) {
    throw EvalError("unknown function '" + std::string(name) + "'", where);
  }
  if (arguments.size() < builtin->min_arguments || arguments.size() > builtin->max_arguments) {
    throw EvalError(std::string(name) + " takes " + arity_text(*builtin) + " argument" +
                        (builtin->min_arguments == 1 ? "" : "s") + ", got " +
                        std::to_string(arguments.size()),
                    where);
  }
  return builtin->call(arguments, CallContext{name, where});
}

}  // namespace confeval
