// Expression: parses a custom suspiciousness formula into a tree once, then evaluates
// the tree over whole count arrays with one Eigen array operation per node.
#include "dlfl/expression.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "dlfl/error.h"

namespace dlfl {

struct Expression::Node {
  enum class Kind { number, variable, negate, add, subtract, multiply, divide, power, call };
  enum class Variable { ef, ep, nf, np };
  enum class Function { sqrt, log, exp, abs, min, max };

  Kind kind = Kind::number;
  double number = 0.0;                          // Kind::number
  Variable variable = Variable::ef;             // Kind::variable
  Function function = Function::sqrt;           // Kind::call
  std::vector<std::unique_ptr<Node>> operands;  // operators and calls
  int depth = 1;                                // longest path to a leaf, this node included
};

namespace {

using Node = Expression::Node;
using Kind = Node::Kind;
using Variable = Node::Variable;
using Function = Node::Function;

// Bounds both the parser's recursion and the evaluator's (which follows the tree's
// depth), so that no input can exhaust the stack. Real formulas nest a handful of levels.
constexpr int kMaxDepth = 256;

// A message quotes the formula; a generated one may be huge, and the line stays readable.
constexpr std::size_t kMaxQuotedCodePoints = 120;

struct NamedVariable {
  std::string_view name;
  Variable variable;
};
constexpr NamedVariable kVariables[] = {
    {"ef", Variable::ef}, {"ep", Variable::ep}, {"nf", Variable::nf}, {"np", Variable::np}};

struct NamedFunction {
  std::string_view name;
  Function function;
  std::size_t min_arguments;
  std::size_t max_arguments;
};
constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();
constexpr NamedFunction kFunctions[] = {
    {"sqrt", Function::sqrt, 1, 1},        {"log", Function::log, 1, 1},
    {"exp", Function::exp, 1, 1},          {"abs", Function::abs, 1, 1},
    {"min", Function::min, 2, kUnbounded}, {"max", Function::max, 2, kUnbounded}};

constexpr std::string_view kKnownNames =
    "variables are ef, ep, nf, np; functions are sqrt, log, exp, abs, min, max";

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// The formula as a message may quote it: control characters (a pasted newline, a tab)
// become spaces so the message stays one line and its columns still line up.
std::string quote_for_message(std::string_view text) {
  std::string quoted;
  std::size_t code_points = 0;
  for (char c : text) {
    if (!is_continuation_byte(c) && ++code_points > kMaxQuotedCodePoints) {
      quoted += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    quoted += (byte < 0x20 || byte == 0x7F) ? ' ' : c;
  }
  return quoted;
}

enum class TokenKind { number, name, plus, minus, times, divide, power, open, close, comma, end };

struct Token {
  TokenKind kind;
  std::string_view spelling;  // as written, e.g. "×" for TokenKind::times
  int column;                 // 1-based, counted in code points
  double number = 0.0;        // TokenKind::number
};

// The Unicode signs people paste from papers, read as their ASCII operators.
struct UnicodeOperator {
  std::string_view spelling;
  TokenKind kind;
};
constexpr UnicodeOperator kUnicodeOperators[] = {
    {"\u00D7", TokenKind::times}, {"\u00F7", TokenKind::divide}, {"\u2212", TokenKind::minus}};

// Evaluates `node` over arrays of counts.size() elements.
Eigen::ArrayXd evaluate_node(const Node& node, const Counts& counts);

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) { tokenize(); }

  std::unique_ptr<Node> parse_formula() {
    if (peek().kind == TokenKind::end) fail(1, "empty formula");
    auto root = parse_sum();
    const Token& next = peek();
    if (next.kind == TokenKind::close) fail(next.column, "unmatched ')'");
    if (next.kind != TokenKind::end)
      fail(next.column, "expected an operator, found " + describe(next));
    return root;
  }

 private:
  [[noreturn]] void fail(int column, const std::string& what) const {
    throw Error("formula '" + quote_for_message(text_) + "': column " + std::to_string(column) +
                ": " + what);
  }

  static std::string describe(const Token& token) {
    if (token.kind == TokenKind::end) return "end of formula";
    std::string quoted = "'";  // appended, not "'" + ..., which trips g++ 12's -Wrestrict at -O3
    quoted += token.spelling;
    return quoted += '\'';
  }

  void tokenize() {
    std::size_t at = 0;
    int column = 1;
    // Moves past `bytes` bytes, counting columns in code points so that a pasted '×'
    // is one column wide, as the user sees it.
    auto advance = [&](std::size_t bytes) {
      for (std::size_t end = at + bytes; at < end; ++at) {
        if (!is_continuation_byte(text_[at])) ++column;
      }
    };
    auto add = [&](TokenKind kind, std::size_t bytes, double number = 0.0) {
      tokens_.push_back({kind, text_.substr(at, bytes), column, number});
      advance(bytes);
    };
    while (at < text_.size()) {
      const char c = text_[at];
      const std::string_view rest = text_.substr(at);
      if (is_space(c)) {
        advance(1);
      } else if (is_digit(c) || (c == '.' && rest.size() > 1 && is_digit(rest[1]))) {
        const std::size_t length = number_length(rest);
        double number = 0.0;
        const auto [end, error] = std::from_chars(rest.data(), rest.data() + length, number);
        if (error == std::errc::result_out_of_range) {
          fail(column, "number '" + std::string(rest.substr(0, length)) + "' is out of range");
        }
        if (error != std::errc() || end != rest.data() + length) {
          fail(column, "malformed number '" + std::string(rest.substr(0, length)) + "'");
        }
        add(TokenKind::number, length, number);
      } else if (is_name_start(c)) {
        std::size_t length = 1;
        while (length < rest.size() && is_name_char(rest[length])) ++length;
        add(TokenKind::name, length);
      } else if (const auto kind = ascii_operator(c)) {
        add(*kind, 1);
      } else {
        const auto unicode =
            std::find_if(std::begin(kUnicodeOperators), std::end(kUnicodeOperators),
                         [&](const auto& op) { return rest.starts_with(op.spelling); });
        if (unicode != std::end(kUnicodeOperators)) {
          add(unicode->kind, unicode->spelling.size());
        } else {
          std::size_t length = 1;  // the whole code point, so the message prints it whole
          while (length < rest.size() && is_continuation_byte(rest[length])) ++length;
          fail(column, "unexpected character '" + std::string(rest.substr(0, length)) + "'");
        }
      }
    }
    tokens_.push_back({TokenKind::end, {}, column});
  }

  static std::optional<TokenKind> ascii_operator(char c) {
    switch (c) {
      case '+': return TokenKind::plus;
      case '-': return TokenKind::minus;
      case '*': return TokenKind::times;
      case '/': return TokenKind::divide;
      case '^': return TokenKind::power;
      case '(': return TokenKind::open;
      case ')': return TokenKind::close;
      case ',': return TokenKind::comma;
      default: return std::nullopt;
    }
  }

  // Length of the number at the start of `rest`: digits [. digits] [e [sign] digits].
  // A letter, digit or dot glued to its end (`1e`, `2ef`, `1.2.3`) makes the whole run
  // one malformed number rather than a number followed by something confusing.
  static std::size_t number_length(std::string_view rest) {
    std::size_t length = 0;
    auto skip_digits = [&] {
      while (length < rest.size() && is_digit(rest[length])) ++length;
    };
    skip_digits();
    if (length < rest.size() && rest[length] == '.') {
      ++length;
      skip_digits();
    }
    if (length < rest.size() && (rest[length] == 'e' || rest[length] == 'E')) {
      std::size_t exponent = length + 1;
      if (exponent < rest.size() && (rest[exponent] == '+' || rest[exponent] == '-')) ++exponent;
      if (exponent < rest.size() && is_digit(rest[exponent])) {
        length = exponent;
        skip_digits();
      } else {
        length = exponent;  // "1e", "1e+": kept so the message shows what was written
        while (length < rest.size() && (is_name_char(rest[length]) || rest[length] == '.'))
          ++length;
        return length;
      }
    }
    while (length < rest.size() && (is_name_char(rest[length]) || rest[length] == '.')) ++length;
    return length;
  }

  const Token& peek() const { return tokens_[position_]; }
  const Token& take() { return tokens_[position_++]; }
  bool next_is(TokenKind kind) const { return peek().kind == kind; }

  // sum := product (('+' | '-') product)*
  std::unique_ptr<Node> parse_sum() {
    auto left = parse_product();
    while (next_is(TokenKind::plus) || next_is(TokenKind::minus)) {
      const Token& op = take();
      auto right = parse_product();
      left = make_node(op.kind == TokenKind::plus ? Kind::add : Kind::subtract, op.column,
                       std::move(left), std::move(right));
    }
    return left;
  }

  // product := unary (('*' | '/') unary)*
  std::unique_ptr<Node> parse_product() {
    auto left = parse_unary();
    while (next_is(TokenKind::times) || next_is(TokenKind::divide)) {
      const Token& op = take();
      auto right = parse_unary();
      left = make_node(op.kind == TokenKind::times ? Kind::multiply : Kind::divide, op.column,
                       std::move(left), std::move(right));
    }
    return left;
  }

  // unary := '-' unary | power. Every level of nesting (parenthesis, argument list,
  // sign, exponent) passes through here, so this is where the recursion is bounded.
  std::unique_ptr<Node> parse_unary() {
    if (++depth_ > kMaxDepth) {
      fail(peek().column, "nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    std::unique_ptr<Node> result;
    if (next_is(TokenKind::minus)) {
      const Token& sign = take();
      result = make_node(Kind::negate, sign.column, parse_unary());
    } else {
      result = parse_power();
    }
    --depth_;
    return result;
  }

  // power := primary ('^' unary)?  Right-associative (2^3^2 = 2^9) and tighter than a
  // leading minus (-ef^2 = -(ef^2)), as in mathematics; the exponent may carry a sign.
  std::unique_ptr<Node> parse_power() {
    auto base = parse_primary();
    if (!next_is(TokenKind::power)) return base;
    const Token& op = take();
    return make_node(Kind::power, op.column, std::move(base), parse_unary());
  }

  // primary := number | variable | function '(' sum (',' sum)* ')' | '(' sum ')'
  std::unique_ptr<Node> parse_primary() {
    const Token& token = take();
    switch (token.kind) {
      case TokenKind::number: {
        auto node = std::make_unique<Node>();
        node->number = token.number;
        return node;
      }
      case TokenKind::open: {
        auto inner = parse_sum();
        if (next_is(TokenKind::end)) {
          fail(peek().column,
               "expected ')' to close the '(' at column " + std::to_string(token.column));
        }
        if (!next_is(TokenKind::close))
          fail(peek().column, "expected an operator or ')', found " + describe(peek()));
        take();
        return inner;
      }
      case TokenKind::name: return parse_name(token);
      default: break;
    }
    std::string what = "expected a number, variable, function or '('";
    if (&token != &tokens_.front()) what += " after " + describe(*(&token - 1));
    fail(token.column, what + ", found " + describe(token));
  }

  std::unique_ptr<Node> parse_name(const Token& name) {
    for (const auto& known : kVariables) {
      if (known.name != name.spelling) continue;
      if (next_is(TokenKind::open)) {
        fail(peek().column, "'" + std::string(name.spelling) + "' is a variable, not a function");
      }
      auto node = std::make_unique<Node>();
      node->kind = Kind::variable;
      node->variable = known.variable;
      return node;
    }
    for (const auto& known : kFunctions) {
      if (known.name == name.spelling) return parse_call(name, known);
    }
    fail(name.column,
         "unknown name '" + std::string(name.spelling) + "'; " + std::string(kKnownNames));
  }

  std::unique_ptr<Node> parse_call(const Token& name, const NamedFunction& function) {
    if (!next_is(TokenKind::open)) {
      fail(peek().column, "expected '(' after function '" + std::string(function.name) +
                              "', found " + describe(peek()));
    }
    take();
    std::vector<std::unique_ptr<Node>> arguments;
    if (next_is(TokenKind::close)) {
      take();
    } else {
      while (true) {
        arguments.push_back(parse_sum());
        if (next_is(TokenKind::comma)) {
          take();
        } else if (next_is(TokenKind::close)) {
          take();
          break;
        } else if (next_is(TokenKind::end)) {
          fail(peek().column, "expected ')' to close the '" + std::string(function.name) +
                                  "(' at column " + std::to_string(name.column));
        } else {
          fail(peek().column, "expected an operator, ',' or ')', found " + describe(peek()));
        }
      }
    }
    const std::size_t count = arguments.size();
    if (count < function.min_arguments || count > function.max_arguments) {
      const std::string takes = function.max_arguments == kUnbounded
                                    ? std::to_string(function.min_arguments) + " or more arguments"
                                    : std::to_string(function.min_arguments) + " argument" +
                                          (function.min_arguments == 1 ? "" : "s");
      fail(name.column,
           std::string(function.name) + " takes " + takes + ", got " + std::to_string(count));
    }
    auto node = std::make_unique<Node>();
    node->kind = Kind::call;
    node->function = function.function;
    node->operands = std::move(arguments);
    return finish_node(std::move(node), name.column);
  }

  template <class... Operands>
  std::unique_ptr<Node> make_node(Kind kind, int column, Operands&&... operands) {
    auto node = std::make_unique<Node>();
    node->kind = kind;
    (node->operands.push_back(std::forward<Operands>(operands)), ...);
    return finish_node(std::move(node), column);
  }

  // Folds a node whose operands are all numbers into one number, then bounds the tree's
  // depth: a long chain such as ef+ef+...+ef nests without nesting the parser.
  std::unique_ptr<Node> finish_node(std::unique_ptr<Node> node, int column) {
    const bool constant =
        std::all_of(node->operands.begin(), node->operands.end(),
                    [](const auto& operand) { return operand->kind == Kind::number; });
    if (constant) {
      // Folding runs the evaluator's own array code on one element, so a folded constant
      // follows the same rules (IEEE, NaN-propagating min/max) as an unfolded one.
      const Counts one_element{Eigen::ArrayXd::Zero(1), Eigen::ArrayXd::Zero(1),
                               Eigen::ArrayXd::Zero(1), Eigen::ArrayXd::Zero(1)};
      auto folded = std::make_unique<Node>();
      folded->number = evaluate_node(*node, one_element)(0);
      return folded;
    }
    for (const auto& operand : node->operands)
      node->depth = std::max(node->depth, operand->depth + 1);
    if (node->depth > kMaxDepth) {
      fail(column, "nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    return node;
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t position_ = 0;
  int depth_ = 0;
};

const Eigen::ArrayXd& variable_array(Variable variable, const Counts& counts) {
  switch (variable) {
    case Variable::ef: return counts.ef;
    case Variable::ep: return counts.ep;
    case Variable::nf: return counts.nf;
    case Variable::np: return counts.np;
  }
  return counts.ef;  // unreachable; keeps -Wreturn-type quiet
}

// One operand of an array operation: a constant stays a scalar (so `ef * 2` broadcasts
// without building an array of 2s), a variable is used in place, and any other
// sub-expression is evaluated into an array owned here.
class Operand {
 public:
  Operand(const Node& node, const Counts& counts) : size_(counts.size()) {
    if (node.kind == Kind::number) {
      scalar_ = node.number;
      is_scalar_ = true;
    } else if (node.kind == Kind::variable) {
      array_ = &variable_array(node.variable, counts);
    } else {
      owned_ = evaluate_node(node, counts);
      array_ = &owned_;
    }
  }
  Operand(const Operand&) = delete;  // array_ may point into owned_
  Operand& operator=(const Operand&) = delete;

  bool is_scalar() const { return is_scalar_; }
  double scalar() const { return scalar_; }
  // A constant is spread into an array only when an operation needs one, as for the
  // 2 in min(ep, 2); folding leaves no operator with two constants.
  const Eigen::ArrayXd& array() {
    if (is_scalar_ && array_ == nullptr) {
      owned_ = Eigen::ArrayXd::Constant(size_, scalar_);
      array_ = &owned_;
    }
    return *array_;
  }

 private:
  Eigen::Index size_;
  double scalar_ = 0.0;
  bool is_scalar_ = false;
  const Eigen::ArrayXd* array_ = nullptr;
  Eigen::ArrayXd owned_;
};

// Applies `operation` with a scalar on whichever side holds one, else to two arrays.
template <class Operation>
Eigen::ArrayXd apply_binary(Operand& left, Operand& right, Operation operation) {
  if (left.is_scalar() && !right.is_scalar()) return operation(left.scalar(), right.array());
  if (right.is_scalar() && !left.is_scalar()) return operation(left.array(), right.scalar());
  return operation(left.array(), right.array());
}

// min and max propagate NaN whichever side holds it: a score undefined in one argument
// stays undefined (and Formula::score ranks it last) rather than depending on argument
// order as std::min does.
struct MinPropagatingNaN {
  double operator()(double a, double b) const {
    return std::isnan(a) || std::isnan(b) ? a + b : std::min(a, b);
  }
};
struct MaxPropagatingNaN {
  double operator()(double a, double b) const {
    return std::isnan(a) || std::isnan(b) ? a + b : std::max(a, b);
  }
};

Eigen::ArrayXd evaluate_call(const Node& node, const Counts& counts) {
  Operand first(*node.operands.front(), counts);
  switch (node.function) {
    case Function::sqrt: return first.array().sqrt();
    case Function::log: return first.array().log();
    case Function::exp: return first.array().exp();
    case Function::abs: return first.array().abs();
    case Function::min:
    case Function::max: break;
  }
  Eigen::ArrayXd result = first.array();
  for (std::size_t i = 1; i < node.operands.size(); ++i) {
    Operand next(*node.operands[i], counts);
    const Eigen::ArrayXd& other = next.array();
    if (node.function == Function::min) {
      result = result.binaryExpr(other, MinPropagatingNaN{});
    } else {
      result = result.binaryExpr(other, MaxPropagatingNaN{});
    }
  }
  return result;
}

Eigen::ArrayXd evaluate_node(const Node& node, const Counts& counts) {
  switch (node.kind) {
    case Kind::number: return Eigen::ArrayXd::Constant(counts.size(), node.number);
    case Kind::variable: return variable_array(node.variable, counts);
    case Kind::negate: return -Operand(*node.operands[0], counts).array();
    case Kind::call: return evaluate_call(node, counts);
    default: break;
  }
  Operand left(*node.operands[0], counts);
  Operand right(*node.operands[1], counts);
  switch (node.kind) {
    case Kind::add:
      return apply_binary(left, right,
                          [](const auto& a, const auto& b) -> Eigen::ArrayXd { return a + b; });
    case Kind::subtract:
      return apply_binary(left, right,
                          [](const auto& a, const auto& b) -> Eigen::ArrayXd { return a - b; });
    case Kind::multiply:
      return apply_binary(left, right,
                          [](const auto& a, const auto& b) -> Eigen::ArrayXd { return a * b; });
    case Kind::divide:
      return apply_binary(left, right,
                          [](const auto& a, const auto& b) -> Eigen::ArrayXd { return a / b; });
    case Kind::power:
      // DStar's ef^2 is the common case: one correctly rounded multiply, cheaper than
      // pow(x, 2) and no less accurate.
      if (right.is_scalar() && right.scalar() == 2.0 && !left.is_scalar())
        return left.array().square();
      return apply_binary(left, right, [](const auto& a, const auto& b) -> Eigen::ArrayXd {
        return Eigen::pow(a, b);
      });
    default: break;
  }
  return {};  // unreachable: every kind is handled above
}

}  // namespace

Expression Expression::parse(std::string_view text) {
  Expression expression;
  expression.root_ = Parser(text).parse_formula();
  expression.text_ = std::string(text);
  return expression;
}

Eigen::ArrayXd Expression::evaluate(const Counts& counts) const {
  if (!root_) throw Error("formula: evaluating an expression that was never parsed");
  return evaluate_node(*root_, counts);
}

}  // namespace dlfl
