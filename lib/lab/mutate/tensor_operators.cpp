// Tensor operators (shapes, strides, broadcasting, dtypes; bug type tensor) and the
// reduction-axis operator (api: an argument of an op call). Heuristics:
//  - swap_strides: two adjacent terms `a * s0 + b * s1` (also inside a longer sum) whose
//    factors s0, s1 are named like strides (stride, strides, pitch, ld*): s0 ↔ s1.
//  - transpose_index: an integer `i * n + j` (the row-major index), no literal among i, n,
//    j, no CUDA built-in (thread_index_off_by_one covers those), j not a product (then it
//    is swap_strides' sum): `j * n + i`.
//  - swap_dims: a literal subscript of a shape-like name (shape, dims, sizes, strides,
//    extent) or a literal argument of .size(k)/.stride(k)/.shape(k)/.extent(k): 0 ↔ 1,
//    2 ↔ 3, -1 ↔ -2 (the two innermost dimensions for negative axes).
//  - broadcast_rule: in functions with a broadcast/expand word: `d == 1` ↔ `d != 1`, and a
//    subscript `a[i - lead]` or `a[lead + i]` (i a for-loop variable) → `a[i]`, i.e.
//    aligning dimensions from the left instead of NumPy's right.
//  - dtype_narrowing: a local declared with the keyword `double` or `float` (not auto, not a
//    typedef, not brace-initialised where narrowing is an error, one declarator): double →
//    float and int, float → int; in __device__/__global__ code float → __half when the
//    unit declares __half (cuda_fp16.h included). CPU code has no portable half type.
//  - reduction_axis: an argument bound to a parameter named axis/axes/*_axis/dim of
//    integer type (not of a shape accessor such as size(dim)): a literal k → k + 1 and
//    k - 1, a variable v → v + 1 and v - 1.
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/TypeLoc.h>

#include "names.h"
#include "operator_families.h"

namespace dlfl::mutate::detail {
namespace {

using namespace clang;
using enum Operator;

// The stride factor of a product, if it has one (rhs preferred: `i * stride`).
const Expr* stride_factor(const Expr* e) {
  const auto m = as_binary(strip(e));
  if (!m || m->opcode != BO_Mul) return nullptr;
  if (is_stride_name(base_name(m->rhs))) return m->rhs;
  if (is_stride_name(base_name(m->lhs))) return m->lhs;
  return nullptr;
}

void swap_strides_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || b->opcode != BO_Add || (b->overloaded && !b->dependent)) return;
  const Expr* second = strip(b->rhs);
  const Expr* s2 = stride_factor(second);
  if (!s2) return;
  // The term just before: the whole lhs, or the last term of a sum on the left.
  const Expr* first = strip(b->lhs);
  if (const auto l = as_binary(first); l && l->opcode == BO_Add && !stride_factor(first)) first = strip(l->rhs);
  const Expr* s1 = stride_factor(first);
  if (!s1) return;
  const auto t1 = sites.text(s1), t2 = sites.text(s2);
  if (t1 && t2 && *t1 != *t2)
    sites.splice(swap_strides, SourceRange(first->getBeginLoc(), second->getEndLoc()),
                 {{s1->getSourceRange(), *t2}, {s2->getSourceRange(), *t1}});
}

bool plain_operand(const Expr* e) { return !integer_literal(e) && cuda_builtin(e).empty(); }

void transpose_index_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || b->opcode != BO_Add || b->overloaded || !is_integer(cast<Expr>(&s))) return;
  const auto p = as_binary(strip(b->lhs));
  if (!p || p->opcode != BO_Mul || p->overloaded) return;
  const Expr* i = p->lhs;
  const Expr* n = p->rhs;
  const Expr* j = b->rhs;
  if (!plain_operand(i) || !plain_operand(n) || !plain_operand(j)) return;
  if (const auto jb = as_binary(strip(j)); jb && jb->opcode == BO_Mul) return;
  const auto ti = sites.text(i), tj = sites.text(j);
  if (ti && tj && *ti != *tj)
    sites.splice(transpose_index, cast<Expr>(&s)->getSourceRange(),
                 {{i->getSourceRange(), *tj}, {j->getSourceRange(), *ti}});
}

bool is_shape_accessor(llvm::StringRef name) {
  return name == "size" || name == "stride" || name == "shape" || name == "extent" || name == "dim";
}

std::int64_t paired_dimension(std::int64_t k) { return k >= 0 ? (k ^ 1) : -(((-k - 1) ^ 1) + 1); }

void swap_dims_op(const Stmt& s, Sites& sites) {
  const Expr* base = nullptr;
  const Expr* index = nullptr;
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(&s)) {
    base = a->getBase();
    index = a->getIdx();
  } else if (const auto* o = dyn_cast<CXXOperatorCallExpr>(&s); o && o->getOperator() == OO_Subscript) {
    base = o->getArg(0);
    index = o->getArg(1);
  } else if (const auto* c = dyn_cast<CallExpr>(&s); c && !isa<CXXOperatorCallExpr>(c) && c->getNumArgs() == 1) {
    if (is_shape_accessor(callee_name(c))) index = c->getArg(0);
  }
  if (!index) return;
  const auto k = integer_literal(index);
  if (!k || (base && (*k < 0 || !is_shape_name(base_name(base))))) return;
  sites.replace(swap_dims, strip(index)->getSourceRange(), std::to_string(paired_dimension(*k)));
}

// A variable declared in the init-statement of a for loop.
bool loop_variable(const Expr* e, Sites& sites) {
  const auto* ref = dyn_cast_or_null<DeclRefExpr>(strip(e));
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!var) return false;
  auto& ctx = sites.context();
  for (const auto& p : ctx.getParents(*var))
    if (const auto* ds = p.get<DeclStmt>())
      for (const auto& pp : ctx.getParents(*ds))
        if (const auto* f = pp.get<ForStmt>(); f && f->getInit() == ds) return true;
  return false;
}

void broadcast_rule_op(const Stmt& s, Sites& sites) {
  if (!sites.function().broadcast) return;
  if (const auto b = as_binary(&s); b && (b->opcode == BO_EQ || b->opcode == BO_NE) &&
                                    (integer_literal(b->lhs) == 1 || integer_literal(b->rhs) == 1)) {
    sites.replace(broadcast_rule, b->op_loc, b->opcode == BO_EQ ? "!=" : "==");
    return;
  }
  const Expr* index = nullptr;
  if (const auto* a = dyn_cast<ArraySubscriptExpr>(&s)) index = a->getIdx();
  if (const auto* o = dyn_cast<CXXOperatorCallExpr>(&s); o && o->getOperator() == OO_Subscript) index = o->getArg(1);
  const auto off = as_binary(strip(index));
  if (!off || off->overloaded) return;
  const Expr* kept = nullptr;
  if (off->opcode == BO_Sub) kept = off->lhs;
  if (off->opcode == BO_Add)
    kept = loop_variable(off->rhs, sites) ? off->rhs : loop_variable(off->lhs, sites) ? off->lhs : nullptr;
  if (kept)
    if (const auto t = sites.text(kept)) sites.replace(broadcast_rule, strip(index)->getSourceRange(), *t);
}

void reduction_axis_op(const Stmt& s, Sites& sites) {
  const auto* call = dyn_cast<CallExpr>(&s);
  if (!call || isa<CXXOperatorCallExpr>(call)) return;
  const FunctionDecl* callee = call->getDirectCallee();
  // Shape accessors (x.size(dim)) read a dimension, they reduce nothing: swap_dims.
  if (!callee || is_shape_accessor(callee_name(call))) return;
  const unsigned n = std::min(call->getNumArgs(), callee->getNumParams());
  for (unsigned i = 0; i < n; ++i) {
    const ParmVarDecl* p = callee->getParamDecl(i);
    const Expr* arg = call->getArg(i);
    const QualType t = p->getType().getNonReferenceType().getCanonicalType();
    if (isa<CXXDefaultArgExpr>(arg) || !is_axis_name(p->getName()) || !t->isIntegerType() || t->isBooleanType())
      continue;
    if (const auto k = integer_literal(arg)) {
      sites.replace(reduction_axis, strip(arg)->getSourceRange(), std::to_string(*k + 1));
      sites.replace(reduction_axis, strip(arg)->getSourceRange(), std::to_string(*k - 1));
    } else if (!referenced_name(arg).empty()) {
      if (const auto text = sites.text(arg)) {
        sites.replace(reduction_axis, arg->getSourceRange(), *text + " + 1");
        sites.replace(reduction_axis, arg->getSourceRange(), *text + " - 1");
      }
    }
  }
}

bool declares_half(ASTContext& ctx) { return !ctx.getTranslationUnitDecl()->lookup(&ctx.Idents.get("__half")).empty(); }

}  // namespace

void tensor_operators(const Stmt& s, Sites& sites) {
  if (sites.on(swap_strides)) swap_strides_op(s, sites);
  if (sites.on(transpose_index)) transpose_index_op(s, sites);
  if (sites.on(swap_dims)) swap_dims_op(s, sites);
  if (sites.on(broadcast_rule)) broadcast_rule_op(s, sites);
  if (sites.on(reduction_axis)) reduction_axis_op(s, sites);
}

void tensor_declaration_operators(const VarDecl& d, Sites& sites) {
  if (!sites.on(dtype_narrowing) || !d.isLocalVarDecl() || d.getInitStyle() == VarDecl::ListInit ||
      !d.getTypeSourceInfo())
    return;
  const auto* builtin = d.getType().getCanonicalType()->getAs<BuiltinType>();
  if (!builtin || (builtin->getKind() != BuiltinType::Double && builtin->getKind() != BuiltinType::Float)) return;
  const auto keyword = d.getTypeSourceInfo()->getTypeLoc().getUnqualifiedLoc().getAs<BuiltinTypeLoc>();
  if (!keyword) return;
  // One declarator: `double a = 0, b = 0;` shares the keyword.
  for (const auto& p : sites.context().getParents(d))
    if (const auto* ds = p.get<DeclStmt>(); ds && !ds->isSingleDecl()) return;
  const SourceRange range = keyword.getSourceRange();
  if (builtin->getKind() == BuiltinType::Double) {
    sites.replace(dtype_narrowing, range, "float");
  } else if (sites.function().gpu && declares_half(sites.context())) {
    sites.replace(dtype_narrowing, range, "__half");
  }
  sites.replace(dtype_narrowing, range, "int");
}

}  // namespace dlfl::mutate::detail
