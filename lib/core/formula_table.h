// The built-in formula table (internal to lib/core).
#pragma once

#include <span>

#include "dlfl/formula.h"

namespace dlfl::detail {

struct BuiltinFormula {
  FormulaInfo info;
  Eigen::ArrayXd (*kernel)(const Counts&);
};

std::span<const BuiltinFormula> builtin_formula_table();

// DStar (Wong et al., TR 2014) with a configurable exponent: ef^star / (ep + nf).
Eigen::ArrayXd dstar(const Counts& c, double star);

}  // namespace dlfl::detail
