// Operator semantics. Overflow is an error rather than wrap-around: a config value that
// silently wrapped would be a wrong setting nobody notices.
#include "confeval/operators.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "confeval/error.h"

namespace confeval {

namespace {

[[noreturn]] void type_mismatch(BinaryOp op, const Value& lhs, const Value& rhs,
                                const SourceLocation& where) {
  throw EvalError("cannot apply '" + std::string(symbol(op)) + "' to " +
                      std::string(type_name(lhs.type())) + " and " +
                      std::string(type_name(rhs.type())),
                  where);
}

[[noreturn]] void overflow(BinaryOp op, const SourceLocation& where) {
  throw EvalError("integer overflow in '" + std::string(symbol(op)) + "'", where);
}

Value finite(double result, BinaryOp op, const SourceLocation& where) {
  if (!std::isfinite(result)) {
    throw EvalError("'" + std::string(symbol(op)) + "' gives a non-finite result", where);
  }
  return Value(result);
}

// base ** exponent for exponent >= 0 by repeated squaring; false on overflow.
bool checked_power(std::int64_t base, std::int64_t exponent, std::int64_t& result) {
  result = 1;
  while (exponent > 0) {
    if ((exponent & 1) != 0 && __builtin_mul_overflow(result, base, &result)) {
      return false;
    }
    exponent >>= 1;
    if (exponent > 0 && __builtin_mul_overflow(base, base, &base)) {
      return false;
    }
  }
  return true;
}

Value int_quotient(BinaryOp op, std::int64_t a, std::int64_t b, const SourceLocation& where) {
  if (b == 0) {
    throw EvalError(op == BinaryOp::Div ? "division by zero" : "modulo by zero", where);
  }
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1) {
    // The one quotient that does not fit; its remainder is 0 but computing it traps.
    if (op == BinaryOp::Mod) {
      return Value(0);
    }
    overflow(op, where);
  }
  return Value(op == BinaryOp::Div ? a / b : a % b);
}

Value int_arithmetic(BinaryOp op, std::int64_t a, std::int64_t b, const SourceLocation& where) {
  std::int64_t result = 0;
  bool overflowed = false;
  switch (op) {
    case BinaryOp::Add:
      overflowed = __builtin_add_overflow(a, b, &result);
      break;
    case BinaryOp::Sub:
      overflowed = __builtin_sub_overflow(a, b, &result);
      break;
    case BinaryOp::Mul:
      overflowed = __builtin_mul_overflow(a, b, &result);
      break;
    case BinaryOp::Div:
    case BinaryOp::Mod:
      return int_quotient(op, a, b, where);
    case BinaryOp::Pow:
      if (b < 0) {
        return finite(std::pow(static_cast<double>(a), static_cast<double>(b)), op, where);
      }
#if CONFEVAL_FAULT_POW_SWAPPED_ARGS
      overflowed = !checked_power(b, a, result);
#else
      overflowed = !checked_power(a, b, result);
#endif
      break;
    default:
      throw std::logic_error("int_arithmetic: not an arithmetic operator");
  }
  if (overflowed) {
    overflow(op, where);
  }
  return Value(result);
}

Value float_arithmetic(BinaryOp op, double a, double b, const SourceLocation& where) {
  switch (op) {
    case BinaryOp::Add:
      return finite(a + b, op, where);
    case BinaryOp::Sub:
      return finite(a - b, op, where);
    case BinaryOp::Mul:
      return finite(a * b, op, where);
    case BinaryOp::Div:
      if (b == 0.0) {
        throw EvalError("division by zero", where);
      }
      return finite(a / b, op, where);
    case BinaryOp::Pow:
      return finite(std::pow(a, b), op, where);
    default:
      throw std::logic_error("float_arithmetic: not an arithmetic operator");
  }
}

Value arithmetic(BinaryOp op, const Value& lhs, const Value& rhs, const SourceLocation& where) {
  if (op == BinaryOp::Add && lhs.is_string() && rhs.is_string()) {
    return Value(lhs.as_string() + rhs.as_string());
  }
  if (op == BinaryOp::Add && lhs.is_array() && rhs.is_array()) {
    Value::Array items = lhs.as_array();
    items.insert(items.end(), rhs.as_array().begin(), rhs.as_array().end());
    return Value(std::move(items));
  }
  if (!lhs.is_number() || !rhs.is_number()) {
    type_mismatch(op, lhs, rhs, where);
  }
  if (lhs.is_int() && rhs.is_int()) {
    return int_arithmetic(op, lhs.as_int(), rhs.as_int(), where);
  }
  if (op == BinaryOp::Mod) {
    type_mismatch(op, lhs, rhs, where);  // % is defined on ints only
  }
  return float_arithmetic(op, lhs.as_number(), rhs.as_number(), where);
}

// Three-way comparison of two numbers or two strings: negative, zero or positive.
int compare(BinaryOp op, const Value& lhs, const Value& rhs, const SourceLocation& where) {
  if (lhs.is_int() && rhs.is_int()) {
    return lhs.as_int() < rhs.as_int() ? -1 : (lhs.as_int() > rhs.as_int() ? 1 : 0);
  }
  if (lhs.is_number() && rhs.is_number()) {
    // Ints beyond 2^53 lose precision here; configs do not compare such numbers with floats.
    const double a = lhs.as_number();
    const double b = rhs.as_number();
    return a < b ? -1 : (a > b ? 1 : 0);
  }
  if (lhs.is_string() && rhs.is_string()) {
    const int c = lhs.as_string().compare(rhs.as_string());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  type_mismatch(op, lhs, rhs, where);
}

bool relation_holds(BinaryOp op, int order) {
  switch (op) {
    case BinaryOp::Lt:
      return order < 0;
    case BinaryOp::Le:
#if CONFEVAL_FAULT_LE_OPERATOR
      return order < 0;
#else
      return order <= 0;
#endif
    case BinaryOp::Gt:
      return order > 0;
    case BinaryOp::Ge:
      return order >= 0;
    default:
      throw std::logic_error("relation_holds: not a relational operator");
  }
}

}  // namespace

Value apply_unary(UnaryOp op, const Value& operand, const SourceLocation& where) {
  if (op == UnaryOp::Not) {
    if (!operand.is_bool()) {
      throw EvalError("cannot apply '!' to " + std::string(type_name(operand.type())), where);
    }
    return Value(!operand.as_bool());
  }
  if (operand.is_int()) {
    if (operand.as_int() == std::numeric_limits<std::int64_t>::min()) {
      throw EvalError("integer overflow in '-'", where);
    }
    return Value(-operand.as_int());
  }
  if (operand.is_float()) {
    return Value(-operand.as_float());
  }
  throw EvalError("cannot apply '-' to " + std::string(type_name(operand.type())), where);
}

Value apply_binary(BinaryOp op, const Value& lhs, const Value& rhs, const SourceLocation& where) {
  switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod:
    case BinaryOp::Pow:
      return arithmetic(op, lhs, rhs, where);
    case BinaryOp::Eq:
      return Value(loosely_equal(lhs, rhs));
    case BinaryOp::Ne:
      return Value(!loosely_equal(lhs, rhs));
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
      return Value(relation_holds(op, compare(op, lhs, rhs, where)));
    case BinaryOp::And:
    case BinaryOp::Or:
      break;
  }
  throw std::logic_error("apply_binary: && and || are evaluated by the evaluator");
}

bool loosely_equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_int() && b.is_int()) {
      return a.as_int() == b.as_int();
    }
    return a.as_number() == b.as_number();
  }
  if (a.is_array() && b.is_array()) {
    const Value::Array& x = a.as_array();
    const Value::Array& y = b.as_array();
    if (x.size() != y.size()) {
      return false;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!loosely_equal(x[i], y[i])) {
        return false;
      }
    }
    return true;
  }
  return a == b;
}

Value index_value(const Value& container, const Value& index, const SourceLocation& where) {
  if (!container.is_array() && !container.is_string()) {
    throw EvalError("cannot index a value of type " + std::string(type_name(container.type())),
                    where);
  }
  if (!index.is_int()) {
    throw EvalError("index must be an int, not " + std::string(type_name(index.type())), where);
  }
  const auto size = static_cast<std::int64_t>(
      container.is_array() ? container.as_array().size() : container.as_string().size());
  const std::int64_t i = index.as_int() < 0 ? index.as_int() + size : index.as_int();
  if (i < 0 || i >= size) {
    throw EvalError("index " + std::to_string(index.as_int()) + " is out of range for " +
                        std::string(type_name(container.type())) + " of length " +
                        std::to_string(size),
                    where);
  }
  const auto at = static_cast<std::size_t>(i);
  return container.is_array() ? container.as_array()[at]
                              : Value(container.as_string().substr(at, 1));
}

}  // namespace confeval
