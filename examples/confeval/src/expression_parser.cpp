// Expression parser: precedence climbing over the binary-operator table.
#include "confeval/expression_parser.h"

#include <optional>
#include <stdexcept>

#include "confeval/lexer.h"
#include "token_cursor.h"

namespace confeval {

namespace {

// Unary minus and not bind tighter than every binary operator but `**`.
constexpr int kUnaryPrecedence = 7;

std::optional<BinaryOp> binary_op_of(TokenKind kind) {
  switch (kind) {
    case TokenKind::OrOr: return BinaryOp::Or;
    case TokenKind::AndAnd: return BinaryOp::And;
    case TokenKind::Equal: return BinaryOp::Eq;
    case TokenKind::NotEqual: return BinaryOp::Ne;
    case TokenKind::Less: return BinaryOp::Lt;
    case TokenKind::LessEqual: return BinaryOp::Le;
    case TokenKind::Greater: return BinaryOp::Gt;
    case TokenKind::GreaterEqual: return BinaryOp::Ge;
    case TokenKind::Plus: return BinaryOp::Add;
    case TokenKind::Minus: return BinaryOp::Sub;
    case TokenKind::Star: return BinaryOp::Mul;
    case TokenKind::Slash: return BinaryOp::Div;
    case TokenKind::Percent: return BinaryOp::Mod;
    case TokenKind::StarStar: return BinaryOp::Pow;
    default: return std::nullopt;
  }
}

bool is_relational(BinaryOp op) {
  return op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt || op == BinaryOp::Ge;
}

class ExpressionParser {
 public:
  explicit ExpressionParser(detail::TokenCursor& cursor) : cursor_(cursor) {}

  ExprPtr parse() {
    ExprPtr condition = parse_binary(1);
    if (!cursor_.check(TokenKind::Question)) {
      return condition;
    }
    const SourceLocation where = cursor_.next().where;
    ExprPtr then = parse();
    cursor_.expect(TokenKind::Colon, "':' of the conditional expression");
    ExprPtr otherwise = parse();  // right-associative: a ? b : c ? d : e
    return make_conditional(std::move(condition), std::move(then), std::move(otherwise), where);
  }

 private:
  ExprPtr parse_binary(int min_precedence) {
    ExprPtr lhs = parse_unary();
    while (true) {
      const std::optional<BinaryOp> op = binary_op_of(cursor_.peek().kind);
      if (!op || binary_precedence(*op) < min_precedence) {
        return lhs;
      }
      const SourceLocation where = cursor_.next().where;
      const int precedence = binary_precedence(*op);
      const bool right_associative = *op == BinaryOp::Pow;
      ExprPtr rhs = parse_binary(right_associative ? precedence : precedence + 1);
      // `a < b < c` would compare a bool with c; Python chains instead. Refuse both readings.
      const std::optional<BinaryOp> following = binary_op_of(cursor_.peek().kind);
      if (is_relational(*op) && following && is_relational(*following)) {
        cursor_.fail("comparison operators cannot be chained; combine them with '&&'");
      }
      lhs = make_binary(*op, std::move(lhs), std::move(rhs), where);
    }
  }

  ExprPtr parse_unary() {
    if (cursor_.check(TokenKind::Minus) || cursor_.check(TokenKind::Bang)) {
      const Token& token = cursor_.next();
      const UnaryOp op = token.kind == TokenKind::Minus ? UnaryOp::Negate : UnaryOp::Not;
      // The operand is everything binding tighter than the unary operator, so -2 ** 2 is
      // -(2 ** 2).
      return make_unary(op, parse_binary(kUnaryPrecedence + 1), token.where);
    }
    return parse_postfix();
  }

  ExprPtr parse_postfix() {
    ExprPtr expr = parse_primary();
    while (cursor_.check(TokenKind::LeftBracket)) {
      const SourceLocation where = cursor_.next().where;
      ExprPtr index = parse();
      cursor_.expect(TokenKind::RightBracket, "']' after the index");
      expr = make_index(std::move(expr), std::move(index), where);
    }
    return expr;
  }

  ExprPtr parse_primary() {
    const Token& token = cursor_.peek();
    switch (token.kind) {
      case TokenKind::Integer:
        cursor_.next();
        return make_literal(Value(token.int_value), token.where);
      case TokenKind::Float:
        cursor_.next();
        return make_literal(Value(token.float_value), token.where);
      case TokenKind::True:
      case TokenKind::False:
        cursor_.next();
        return make_literal(Value(token.kind == TokenKind::True), token.where);
      case TokenKind::String:
        cursor_.next();
        return parse_string(token);
      case TokenKind::LeftBracket:
        return parse_array();
      case TokenKind::LeftParen: {
        cursor_.next();
        ExprPtr inner = parse();
        cursor_.expect(TokenKind::RightParen, "')'");
        return inner;
      }
      case TokenKind::DollarBrace: {
        cursor_.next();
        std::string path = detail::parse_path(cursor_, "key path after '${'");
        cursor_.expect(TokenKind::RightBrace, "'}' closing '${'");
        return make_reference(std::move(path), token.where);
      }
      case TokenKind::Identifier:
        if (cursor_.peek(1).kind == TokenKind::LeftParen) {
          return parse_call();
        }
        return make_reference(detail::parse_path(cursor_, "key path"), token.where);
      default:
        cursor_.fail("expected a value, found " + describe(token));
    }
  }

  static ExprPtr parse_string(const Token& token) {
    if (!token.interpolated) {
      return make_literal(Value(token.text), token.where);
    }
    const SourceLocation body{token.where.file, token.where.line, token.where.column + 1};
    std::vector<TemplatePart> parts = parse_template(token.text, body);
    if (parts.empty()) {
      return make_literal(Value(""), token.where);
    }
    if (parts.size() == 1 && !parts[0].is_reference) {
      return make_literal(Value(parts[0].text), token.where);
    }
    return make_template(std::move(parts), token.where);
  }

  ExprPtr parse_array() {
    const SourceLocation where = cursor_.next().where;
    std::vector<ExprPtr> elements;
    while (!cursor_.check(TokenKind::RightBracket)) {
      elements.push_back(parse());
      if (!cursor_.accept(TokenKind::Comma)) {
        break;  // a trailing comma before ']' is allowed: one element per line diffs well
      }
    }
    cursor_.expect(TokenKind::RightBracket, "',' or ']' in array");
    return make_array(std::move(elements), where);
  }

  ExprPtr parse_call() {
    const Token& name = cursor_.next();
    cursor_.next();  // '('
    std::vector<ExprPtr> arguments;
    while (!cursor_.check(TokenKind::RightParen)) {
      arguments.push_back(parse());
      if (!cursor_.accept(TokenKind::Comma)) {
        break;
      }
    }
    cursor_.expect(TokenKind::RightParen, "',' or ')' in call to " + name.text);
    return make_call(name.text, std::move(arguments), name.where);
  }

  detail::TokenCursor& cursor_;
};

}  // namespace

int binary_precedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::Or:
      return 1;
    case BinaryOp::And:
      return 2;
    case BinaryOp::Eq:
    case BinaryOp::Ne:
      return 3;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
      return 4;
    case BinaryOp::Add:
    case BinaryOp::Sub:
      return 5;
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod:
#if CONFEVAL_FAULT_MUL_PRECEDENCE
      return 5;
#else
      return 6;
#endif
    case BinaryOp::Pow:
      return 8;
  }
  throw std::logic_error("binary_precedence: invalid BinaryOp");
}

namespace detail {

ExprPtr parse_expression(TokenCursor& cursor) { return ExpressionParser(cursor).parse(); }

std::string parse_path(TokenCursor& cursor, const std::string& what) {
  std::string path = cursor.expect(TokenKind::Identifier, what).text;
  while (cursor.accept(TokenKind::Dot)) {
    path += "." + cursor.expect(TokenKind::Identifier, "identifier after '.'").text;
  }
  return path;
}

}  // namespace detail

ExprPtr parse_expression(std::string_view text, const std::string& file) {
  const std::vector<Token> tokens = tokenize(text, file);
  detail::TokenCursor cursor(tokens);
  ExprPtr expr = detail::parse_expression(cursor);
  if (!cursor.check(TokenKind::End)) {
    cursor.fail("unexpected " + describe(cursor.peek()) + " after the expression");
  }
  return expr;
}

}  // namespace confeval
