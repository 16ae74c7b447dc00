// The evaluator: a memoising depth-first walk from each key through the keys it references.
#include "confeval/evaluator.h"

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "confeval/builtins.h"
#include "confeval/error.h"
#include "confeval/operators.h"
#include "confeval/path.h"

namespace confeval {

namespace {

class Evaluator {
 public:
  explicit Evaluator(const std::vector<Assignment>& assignments)
      : assignments_(assignments),
        states_(assignments.size(), State::Pending),
        values_(assignments.size()) {
    for (std::size_t i = 0; i < assignments.size(); ++i) {
      register_key(i);
    }
  }

  Config run() {
    Config config;
    for (std::size_t i = 0; i < assignments_.size(); ++i) {
      config.set(assignments_[i].path(), value_of(i), assignments_[i].where);
    }
    return config;
  }

 private:
  enum class State { Pending, Active, Done };

  void register_key(std::size_t i) {
    const std::string path = assignments_[i].path();
#if CONFEVAL_FAULT_DUPLICATE_KEY_CHECK
    index_.insert_or_assign(path, i);
#else
    const auto [it, inserted] = index_.emplace(path, i);
    if (!inserted) {
      throw EvalError("duplicate key '" + path + "' (first set at " +
                          to_string(assignments_[it->second].where) + ")",
                      assignments_[i].where);
    }
#endif
  }

  const Value& value_of(std::size_t i) {
    if (states_[i] == State::Done) {
      return values_[i];
    }
    // resolve() reports a reference to an Active key as a cycle before recursing into it.
    if (states_[i] == State::Active) {
      throw std::logic_error("value_of: cycle must be caught by resolve");
    }
    states_[i] = State::Active;
    active_.push_back(i);
    values_[i] = eval(*assignments_[i].value, assignments_[i].section);
    active_.pop_back();
    states_[i] = State::Done;
    return values_[i];
  }

  std::size_t resolve(const std::string& name, const std::string& section,
                      const SourceLocation& where) const {
    const std::vector<std::string> scope = split_path(section);
    // From the innermost section outwards; depth 0 is the top level.
#if CONFEVAL_FAULT_SCOPE_ROOT_LOOKUP
    for (std::size_t depth = scope.size() + 1; depth-- > 1;) {
#else
    for (std::size_t depth = scope.size() + 1; depth-- > 0;) {
#endif
      const std::string prefix = join_path(scope, depth);
      const auto it = index_.find(prefix.empty() ? name : prefix + "." + name);
      if (it != index_.end()) {
        check_not_active(it->second, where);
        return it->second;
      }
    }
    throw EvalError("unknown key '" + name + "'" +
                        (section.empty() ? "" : " (looked up from section '" + section + "')"),
                    where);
  }

  void check_not_active(std::size_t target, const SourceLocation& where) const {
    if (states_[target] != State::Active) {
      return;
    }
    std::string chain;
    bool in_cycle = false;
    for (const std::size_t i : active_) {
      in_cycle = in_cycle || i == target;
      if (in_cycle) {
        chain += assignments_[i].path() + " -> ";
      }
    }
    throw EvalError("reference cycle: " + chain + assignments_[target].path(), where);
  }

  Value eval(const Expr& expr, const std::string& section) {
    const auto& ops = expr.operands;
    switch (expr.kind) {
      case Expr::Kind::Literal:
        return expr.value;
      case Expr::Kind::Reference:
        return value_of(resolve(expr.name, section, expr.where));
      case Expr::Kind::Template: {
        std::string text;
        for (const TemplatePart& part : expr.parts) {
          text += part.is_reference ? to_text(value_of(resolve(part.text, section, part.where)))
                                    : part.text;
        }
        return Value(std::move(text));
      }
      case Expr::Kind::Array: {
        Value::Array items;
        for (const ExprPtr& element : ops) {
          items.push_back(eval(*element, section));
        }
        return Value(std::move(items));
      }
      case Expr::Kind::Unary:
        return apply_unary(expr.unary_op, eval(*ops[0], section), expr.where);
      case Expr::Kind::Binary:
        if (expr.binary_op == BinaryOp::And || expr.binary_op == BinaryOp::Or) {
          return eval_logical(expr, section);
        }
        return apply_binary(expr.binary_op, eval(*ops[0], section), eval(*ops[1], section),
                            expr.where);
      case Expr::Kind::Conditional: {
        const Value condition = eval(*ops[0], section);
        require_bool(condition, "the condition of '?:'", ops[0]->where);
        return eval(*ops[condition.as_bool() ? 1 : 2], section);
      }
      case Expr::Kind::Call: {
        std::vector<Value> arguments;
        for (const ExprPtr& argument : ops) {
          arguments.push_back(eval(*argument, section));
        }
        return call_builtin(expr.name, arguments, expr.where);
      }
      case Expr::Kind::Index:
        return index_value(eval(*ops[0], section), eval(*ops[1], section), expr.where);
    }
    throw std::logic_error("eval: invalid Expr::Kind");
  }

  // && and || evaluate their right operand only when the left one does not decide, so
  // `has_tls && tls.port > 0` is safe when tls.port is a string.
  Value eval_logical(const Expr& expr, const std::string& section) {
    const std::string what = "operand of '" + std::string(symbol(expr.binary_op)) + "'";
    const Value lhs = eval(*expr.operands[0], section);
    require_bool(lhs, what, expr.operands[0]->where);
    const bool deciding = expr.binary_op == BinaryOp::Or;  // true || x, false && x
#if CONFEVAL_FAULT_LOGICAL_SHORT_CIRCUIT
    if (lhs.as_bool() != deciding) {
#else
    if (lhs.as_bool() == deciding) {
#endif
      return lhs;
    }
    const Value rhs = eval(*expr.operands[1], section);
    require_bool(rhs, what, expr.operands[1]->where);
    return rhs;
  }

  static void require_bool(const Value& value, const std::string& what,
                           const SourceLocation& where) {
    if (!value.is_bool()) {
      throw EvalError(what + " must be a bool, not " + std::string(type_name(value.type())), where);
    }
  }

  const std::vector<Assignment>& assignments_;
  std::vector<State> states_;
  std::vector<Value> values_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::size_t> active_;  // the keys being evaluated, outermost first
};

}  // namespace

Config evaluate(const std::vector<Assignment>& assignments) {
  return Evaluator(assignments).run();
}

Config evaluate(const Document& document) {
  std::vector<Assignment> assignments;
  for (const Statement& statement : document.statements) {
    if (const auto* assignment = std::get_if<Assignment>(&statement)) {
      assignments.push_back(*assignment);
    }
  }
  return evaluate(assignments);
}

}  // namespace confeval
