// The mutation operators of `dlfl mutate`: names, bug types and selection by name.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/mutate/mutant.h"

namespace dlfl::mutate {

// Catalog order is priority order: when two operators make the same edit, the mutant
// keeps the earlier (more specific) one, so DL operators come before the traditional ones.
enum class Operator : unsigned char {
  // gpu
  remove_syncthreads,
  remove_bounds_check,
  thread_index_off_by_one,
  ceil_div,
  // training
  gradient_sign,
  gradient_scale,
  optimizer_momentum,
  optimizer_bias_correction,
  optimizer_learning_rate,
  // numerics
  remove_epsilon,
  misplace_epsilon,
  // tensor
  swap_strides,
  transpose_index,
  swap_dims,
  swap_height_width,
  broadcast_rule,
  dtype_narrowing,
  // api
  reduction_axis,
  // model
  swap_in_out,
  // traditional
  loop_bound,
  negate_condition,
  relational_replace,
  logical_replace,
  arithmetic_replace,
  constant_replace,
  delete_statement,
  swap_arguments,
  unary_delete,
  increment_replace,
  argument_replace,
};
inline constexpr std::size_t kOperatorCount = static_cast<std::size_t>(Operator::argument_replace) + 1;

struct OperatorInfo {
  Operator id;
  std::string_view name;  // e.g. "misplace_epsilon"
  BugType bug_type;
  std::string_view summary;  // one line: the pattern and the edit
};

// Every operator, in Operator (priority) order.
std::span<const OperatorInfo> operator_catalog();
const OperatorInfo& operator_info(Operator op);

// Resolves a selection: each item is an operator name, a bug type name (all operators of
// that type), "dl" (every DL operator) or "all"; items may also be comma-separated lists.
// Empty selection = all. Returns the chosen operators in catalog order. Throws
// dlfl::Error naming the item for an unknown name.
std::vector<Operator> select_operators(const std::vector<std::string>& items);

}  // namespace dlfl::mutate
