// Expression-tree construction and the parenthesised rendering used to inspect parses.
#include "confeval/ast.h"

#include <stdexcept>
#include <utility>

namespace confeval {

namespace {

std::shared_ptr<Expr> make(Expr::Kind kind, SourceLocation where,
                           std::vector<ExprPtr> operands = {}) {
  auto expr = std::make_shared<Expr>();
  expr->kind = kind;
  expr->where = std::move(where);
  expr->operands = std::move(operands);
  return expr;
}

std::string join_sources(const std::vector<ExprPtr>& exprs) {
  std::string text;
  for (const ExprPtr& e : exprs) {
    text += (text.empty() ? "" : ", ") + to_source(*e);
  }
  return text;
}

}  // namespace

std::string_view symbol(UnaryOp op) { return op == UnaryOp::Negate ? "-" : "!"; }

std::string_view symbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "**";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::And: return "&&";
    case BinaryOp::Or: return "||";
  }
  throw std::logic_error("symbol: invalid BinaryOp");
}

ExprPtr make_literal(Value value, SourceLocation where) {
  auto expr = make(Expr::Kind::Literal, std::move(where));
  expr->value = std::move(value);
  return expr;
}

ExprPtr make_reference(std::string path, SourceLocation where) {
  auto expr = make(Expr::Kind::Reference, std::move(where));
  expr->name = std::move(path);
  return expr;
}

ExprPtr make_template(std::vector<TemplatePart> parts, SourceLocation where) {
  auto expr = make(Expr::Kind::Template, std::move(where));
  expr->parts = std::move(parts);
  return expr;
}

ExprPtr make_array(std::vector<ExprPtr> elements, SourceLocation where) {
  return make(Expr::Kind::Array, std::move(where), std::move(elements));
}

ExprPtr make_unary(UnaryOp op, ExprPtr operand, SourceLocation where) {
  auto expr = make(Expr::Kind::Unary, std::move(where), {std::move(operand)});
  expr->unary_op = op;
  return expr;
}

ExprPtr make_binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceLocation where) {
  auto expr = make(Expr::Kind::Binary, std::move(where), {std::move(lhs), std::move(rhs)});
  expr->binary_op = op;
  return expr;
}

ExprPtr make_conditional(ExprPtr condition, ExprPtr then, ExprPtr otherwise,
                         SourceLocation where) {
  return make(Expr::Kind::Conditional, std::move(where),
              {std::move(condition), std::move(then), std::move(otherwise)});
}

ExprPtr make_call(std::string function, std::vector<ExprPtr> arguments, SourceLocation where) {
  auto expr = make(Expr::Kind::Call, std::move(where), std::move(arguments));
  expr->name = std::move(function);
  return expr;
}

ExprPtr make_index(ExprPtr container, ExprPtr index, SourceLocation where) {
  return make(Expr::Kind::Index, std::move(where), {std::move(container), std::move(index)});
}

std::string to_source(const Expr& expr) {
  const auto& ops = expr.operands;
  switch (expr.kind) {
    case Expr::Kind::Literal:
      return to_display(expr.value);
    case Expr::Kind::Reference:
      return expr.name;
    case Expr::Kind::Template: {
      std::string text = "\"";
      for (const TemplatePart& part : expr.parts) {
        text += part.is_reference ? "${" + part.text + "}" : part.text;
      }
      return text + "\"";
    }
    case Expr::Kind::Array:
      return "[" + join_sources(ops) + "]";
    case Expr::Kind::Unary:
      return "(" + std::string(symbol(expr.unary_op)) + to_source(*ops[0]) + ")";
    case Expr::Kind::Binary:
      return "(" + to_source(*ops[0]) + " " + std::string(symbol(expr.binary_op)) + " " +
             to_source(*ops[1]) + ")";
    case Expr::Kind::Conditional:
      return "(" + to_source(*ops[0]) + " ? " + to_source(*ops[1]) + " : " + to_source(*ops[2]) +
             ")";
    case Expr::Kind::Call:
      return expr.name + "(" + join_sources(ops) + ")";
    case Expr::Kind::Index:
      return to_source(*ops[0]) + "[" + to_source(*ops[1]) + "]";
  }
  throw std::logic_error("to_source: invalid Expr::Kind");
}

}  // namespace confeval
