// The operator families: each looks at one statement (or declaration) of a function body
// and records its mutants in Sites. The visitor calls every family on every statement;
// a family returns at once for statements it has no pattern for.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include "sites.h"

namespace dlfl::mutate::detail {

// remove_syncthreads, remove_bounds_check, thread_index_off_by_one, ceil_div.
void gpu_operators(const clang::Stmt& s, Sites& sites);
// gradient_sign, gradient_scale, optimizer_*, remove_epsilon, misplace_epsilon.
void training_operators(const clang::Stmt& s, Sites& sites);
// swap_strides, transpose_index, swap_dims, broadcast_rule, reduction_axis.
void tensor_operators(const clang::Stmt& s, Sites& sites);
// dtype_narrowing.
void tensor_declaration_operators(const clang::VarDecl& d, Sites& sites);
// swap_in_out, swap_height_width.
void paired_name_operators(const clang::Stmt& s, Sites& sites);
// loop_bound, negate_condition, relational/logical/arithmetic/constant replacement,
// delete_statement, swap_arguments, unary_delete, increment_replace, argument_replace.
void traditional_operators(const clang::Stmt& s, Sites& sites);

}  // namespace dlfl::mutate::detail
