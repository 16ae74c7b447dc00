// GPU operators: faults of CUDA kernels and their launch geometry (bug type gpu).
//  - remove_syncthreads: a barrier statement deleted (a race between the shared-memory
//    writes before it and the reads after it).
//  - remove_bounds_check: only in __global__/__device__ functions, where an
//    out-of-range thread must be kept from touching memory. A guard is a condition made
//    only of <, <=, >, >= comparisons of integers joined by &&.
//  - thread_index_off_by_one: the global index is recognised by a product with blockIdx
//    (blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * TILE + ty), built-ins that
//    exist only in CUDA code.
//  - ceil_div: the grid-size rounding, also with `b - 1` folded into a literal. The
//    pattern is common outside GPU code too, so it only counts in CUDA files, in
//    __device__/__global__ code, or where the function or an operand is named like launch
//    geometry (grid, block, tile, thread, warp).
#include <algorithm>
#include <cctype>

#include "names.h"
#include "operator_families.h"

namespace dlfl::mutate::detail {
namespace {

using namespace clang;
using enum Operator;

const CallExpr* as_call(const Stmt* s) {
  if (const auto* c = dyn_cast_or_null<ExprWithCleanups>(s)) s = c->getSubExpr();
  return dyn_cast_or_null<CallExpr>(s);
}

void remove_syncthreads_op(const Stmt& s, Sites& sites) {
  const auto* block = dyn_cast<CompoundStmt>(&s);
  if (!block) return;
  for (const Stmt* child : block->body()) {
    const auto* call = as_call(child);
    if (!call) continue;
    const std::string name = callee_name(call);
    if (name == "__syncthreads" || name == "__syncwarp") sites.remove_statement(remove_syncthreads, child);
  }
}

// Comparisons of integers (indices and sizes) joined by &&: `x[i] > 0.0f` is a value
// test (a ReLU), not a bounds check.
bool is_guard(const Expr* cond) {
  const auto b = as_binary(strip(cond));
  if (!b) return false;
  if (b->opcode == BO_LAnd) return is_guard(b->lhs) && is_guard(b->rhs);
  const auto index = [](const Expr* e) {
    const QualType t = strip(e)->getType().getCanonicalType();
    return !e->isTypeDependent() && t->isIntegerType() && !t->isBooleanType();
  };
  return (b->opcode == BO_LT || b->opcode == BO_LE || b->opcode == BO_GT || b->opcode == BO_GE) && index(b->lhs) &&
         index(b->rhs);
}

bool is_exit(const Stmt* s) {
  if (const auto* c = dyn_cast_or_null<CompoundStmt>(s)) return c->size() == 1 && is_exit(c->body_front());
  return isa_and_nonnull<ReturnStmt>(s);
}

void remove_bounds_check_op(const Stmt& s, Sites& sites) {
  if (!sites.function().gpu) return;
  if (const auto* i = dyn_cast<IfStmt>(&s)) {
    if (i->getElse() || i->getInit() || i->getConditionVariable() || i->isConstexpr() || !is_guard(i->getCond()))
      return;
    if (is_exit(i->getThen())) {
      sites.remove_statement(remove_bounds_check, i);  // `if (i >= n) return;`
    } else {
      sites.replace_chars(remove_bounds_check, i->getBeginLoc(), i->getThen()->getBeginLoc(), "");
    }
    return;
  }
  if (const auto* c = dyn_cast<ConditionalOperator>(&s); c && is_guard(c->getCond())) {
    if (auto t = sites.operand_text(c->getTrueExpr())) sites.replace(remove_bounds_check, c->getSourceRange(), *t);
  }
}

bool mentions_block_index(const Expr* e) {
  const auto b = as_binary(strip_casts(e));
  if (!b || b->opcode != BO_Mul) return false;
  return cuda_builtin(b->lhs) == "blockIdx" || cuda_builtin(b->rhs) == "blockIdx";
}

void thread_index_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || b->opcode != BO_Add || b->overloaded) return;
  if (!mentions_block_index(b->lhs) && !mentions_block_index(b->rhs)) return;
  const auto* e = cast<Expr>(&s);
  if (const auto t = sites.text(e)) {
    sites.replace(thread_index_off_by_one, e->getSourceRange(), "(" + *t + " + 1)");
    sites.replace(thread_index_off_by_one, e->getSourceRange(), "(" + *t + " - 1)");
  }
}

std::string without_spaces(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
  return s;
}

bool same_text(const Expr* a, const Expr* b, Sites& sites) {
  const auto ta = sites.text(a), tb = sites.text(b);
  return ta && tb && without_spaces(*ta) == without_spaces(*tb);
}

bool is_one(const Expr* e) { return integer_literal(e) == 1; }

bool geometry_context(const std::vector<const Expr*>& operands, Sites& sites) {
  if (sites.lang().CUDA || sites.function().gpu || is_launch_geometry_name(sites.function().name)) return true;
  return std::any_of(operands.begin(), operands.end(),
                     [](const Expr* e) { return is_launch_geometry_name(referenced_name(e)); });
}

// `(n + b - 1) / b`, `(n + (b - 1)) / b`, `(n + 255) / 256` → `n / b`; `(n - 1) / b + 1` → `n / b`.
void ceil_div_op(const Stmt& s, Sites& sites) {
  const auto top = as_binary(&s);
  if (!top || top->overloaded || !is_integer(cast<Expr>(&s))) return;
  const Expr* n = nullptr;
  const Expr* divisor = nullptr;
  if (top->opcode == BO_Div) {
    divisor = top->rhs;
    const auto sum = as_binary(strip(top->lhs));
    if (!sum) return;
    if (sum->opcode == BO_Sub && is_one(sum->rhs)) {
      const auto inner = as_binary(strip(sum->lhs));
      if (inner && inner->opcode == BO_Add && same_text(inner->rhs, divisor, sites)) n = inner->lhs;
    } else if (sum->opcode == BO_Add) {
      const auto bm1 = as_binary(strip(sum->rhs));
      if (bm1 && bm1->opcode == BO_Sub && is_one(bm1->rhs) && same_text(bm1->lhs, divisor, sites)) n = sum->lhs;
      // (n + 255) / 256: the `b - 1` already folded into a literal.
      const auto c = integer_literal(sum->rhs), d = integer_literal(divisor);
      if (c && d && *c == *d - 1) n = sum->lhs;
    }
  } else if (top->opcode == BO_Add && is_one(top->rhs)) {
    const auto div = as_binary(strip(top->lhs));
    if (!div || div->opcode != BO_Div) return;
    const auto nm1 = as_binary(strip(div->lhs));
    if (!nm1 || nm1->opcode != BO_Sub || !is_one(nm1->rhs)) return;
    n = nm1->lhs;
    divisor = div->rhs;
  }
  if (!n || !divisor || !geometry_context({n, divisor}, sites)) return;
  const auto tn = sites.operand_text(n), tb = sites.text(divisor);
  if (tn && tb) sites.replace(ceil_div, cast<Expr>(&s)->getSourceRange(), *tn + " / " + *tb);
}

}  // namespace

void gpu_operators(const Stmt& s, Sites& sites) {
  if (sites.on(remove_syncthreads)) remove_syncthreads_op(s, sites);
  if (sites.on(remove_bounds_check)) remove_bounds_check_op(s, sites);
  if (sites.on(thread_index_off_by_one)) thread_index_op(s, sites);
  if (sites.on(ceil_div)) ceil_div_op(s, sites);
}

}  // namespace dlfl::mutate::detail
