// Expression: custom suspiciousness formulas such as `ef / sqrt((ef+nf)*(ef+ep))`,
// parsed once and evaluated over whole count arrays.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <string_view>

#include "dlfl/counts.h"

namespace dlfl {

// Grammar: numbers (1, 0.5, 1e-3), variables ef ep nf np, + - * / (also × ÷ −), ^
// (right-assoc, binds tighter than unary minus: -ef^2 = -(ef^2)), parentheses, functions
// sqrt log exp abs (one argument) and min max (two or more; NaN in any argument gives
// NaN). Division by zero follows IEEE arithmetic and is then sanitized by
// Formula::score (x/0 → ±kInfiniteScore, 0/0 → ranks last).
class Expression {
 public:
  // Throws dlfl::Error on a syntax error, one line: "formula 'TEXT': column C: what"
  // (C is 1-based and counts characters, so a pasted '×' is one column; TEXT is
  // shortened past 120 characters). Nesting deeper than 256 levels is an error too.
  static Expression parse(std::string_view text);

  Eigen::ArrayXd evaluate(const Counts& counts) const;
  const std::string& text() const noexcept { return text_; }

  struct Node;  // the parsed tree (defined in expression.cpp)

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace dlfl
