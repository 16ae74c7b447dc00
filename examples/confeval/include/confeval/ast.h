// Expression trees: what an assignment's right-hand side parses to.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "confeval/source_location.h"
#include "confeval/template_string.h"
#include "confeval/value.h"

namespace confeval {

enum class UnaryOp { Negate, Not };

enum class BinaryOp { Add, Sub, Mul, Div, Mod, Pow, Eq, Ne, Lt, Le, Gt, Ge, And, Or };

// The operator as written: "-", "!", "+", "<=", "&&"...
std::string_view symbol(UnaryOp op);
std::string_view symbol(BinaryOp op);

struct Expr;
// Shared and immutable: documents, includes and evaluators hand the same trees around.
using ExprPtr = std::shared_ptr<const Expr>;

// One node. A single struct with a kind (rather than a class per node) keeps the tree a
// plain value the evaluator can switch over; fields a kind does not use stay empty.
struct Expr {
  enum class Kind {
    Literal,      // value
    Reference,    // name: a dotted key path, resolved from the innermost section outwards
    Template,     // parts: a "..." string with ${...} references
    Array,        // operands: the elements
    Unary,        // unary_op, operands[0]
    Binary,       // binary_op, operands[0] and [1]
    Conditional,  // operands: condition, then, else
    Call,         // name: the builtin; operands: the arguments
    Index,        // operands: the indexed value, the index
  };

  Kind kind = Kind::Literal;
  SourceLocation where;  // the operator for Unary/Binary/Conditional/Index, else the start
  Value value;
  std::string name;
  std::vector<TemplatePart> parts;
  UnaryOp unary_op = UnaryOp::Negate;
  BinaryOp binary_op = BinaryOp::Add;
  std::vector<ExprPtr> operands;
};

ExprPtr make_literal(Value value, SourceLocation where);
ExprPtr make_reference(std::string path, SourceLocation where);
ExprPtr make_template(std::vector<TemplatePart> parts, SourceLocation where);
ExprPtr make_array(std::vector<ExprPtr> elements, SourceLocation where);
ExprPtr make_unary(UnaryOp op, ExprPtr operand, SourceLocation where);
ExprPtr make_binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceLocation where);
ExprPtr make_conditional(ExprPtr condition, ExprPtr then, ExprPtr otherwise, SourceLocation where);
ExprPtr make_call(std::string function, std::vector<ExprPtr> arguments, SourceLocation where);
ExprPtr make_index(ExprPtr container, ExprPtr index, SourceLocation where);

// The expression fully parenthesised, e.g. "(1 + (2 * 3))": the parse tree made visible,
// which is how tests pin down precedence and associativity.
std::string to_source(const Expr& expr);

}  // namespace confeval
