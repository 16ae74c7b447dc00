// Training operators (gradients, optimizers; bug type training) and the epsilon
// operators (numerics). All are name-driven, as the numbers they touch look like any
// other arithmetic to the type system:
//  - gradient_sign / gradient_scale: only in functions whose name has a backward, grad,
//    gradient or bwd word (lambdas count as part of the function they are written in).
//    Sites: `+=`/`-=` on a floating target; `=` to a gradient target (a name with a grad
//    word, or dX where X names a parameter or local: dx, dgamma, dxhat); `return E` of a
//    floating value. Scaling needs a known scalar type (`2 * (E)` would not compile for
//    every class), the sign flip `-(E)` also works in templates.
//  - optimizer_momentum: a `beta * m` / `momentum * v` product (a factor named beta,
//    momentum or rho times a non-literal) added to or subtracted from something: the
//    decayed history is dropped (Adam's `beta1 * m + (1 - beta1) * g` → `(1 - beta1) * g`).
//  - optimizer_bias_correction: `1 - pow(beta, t)` → `1`; division by (or product with the
//    square root of) a bias_correction name → the other operand.
//  - optimizer_learning_rate: lr / learning_rate as a factor of `*` or the dividend of `/`.
//  - remove_epsilon / misplace_epsilon: eps / epsilon / kEps words; misplacing moves eps
//    across a square root (sqrt, sqrtf, rsqrt...), the classic LayerNorm/Adam slip.
#include "names.h"
#include "operator_families.h"

namespace dlfl::mutate::detail {
namespace {

using namespace clang;
using enum Operator;

bool floating_or_dependent(const Expr* e) {
  return e->isTypeDependent() || e->getType().getCanonicalType()->isRealFloatingType();
}

bool gradient_target(const Expr* lhs, const FunctionContext& f) {
  const std::string name = base_name(lhs);
  if (name.empty()) return false;
  if (has_word(name, {"grad", "grads", "gradient", "gradients"})) return true;
  if (name.size() < 2 || name[0] != 'd') return false;
  const std::string rest = name[1] == '_' ? name.substr(2) : name.substr(1);
  return !rest.empty() && f.variables.count(rest) > 0;
}

void flip_and_scale(const Expr* value, Sites& sites) {
  // A literal is a constant, not a gradient (constant_replace covers it).
  if (isa<IntegerLiteral, FloatingLiteral>(strip(value))) return;
  const auto t = sites.operand_text(value);
  if (!t) return;
  sites.replace(gradient_sign, value->getSourceRange(), "-" + *t);
  if (is_scalar_arithmetic(value)) sites.replace(gradient_scale, value->getSourceRange(), "2 * " + *t);
}

void gradient_op(const Stmt& s, Sites& sites) {
  if (!sites.function().gradient) return;
  if (const auto* r = dyn_cast<ReturnStmt>(&s)) {
    if (const Expr* v = r->getRetValue(); v && floating_or_dependent(v) && !v->getType()->isRecordType())
      flip_and_scale(v, sites);
    return;
  }
  const auto b = as_binary(&s);
  if (!b || (b->overloaded && !b->dependent) || !floating_or_dependent(b->lhs)) return;
  if (b->opcode == BO_AddAssign || b->opcode == BO_SubAssign) {
    sites.replace(gradient_sign, b->op_loc, b->opcode == BO_AddAssign ? "-=" : "+=");
    if (is_scalar_arithmetic(b->rhs) && !isa<IntegerLiteral, FloatingLiteral>(strip(b->rhs)))
      if (const auto t = sites.operand_text(b->rhs))
        sites.replace(gradient_scale, b->rhs->getSourceRange(), "2 * " + *t);
  } else if (b->opcode == BO_Assign && gradient_target(b->lhs, sites.function())) {
    flip_and_scale(b->rhs, sites);
  }
}

bool momentum_product(const Expr* e) {
  const auto m = as_binary(strip(e));
  if (!m || m->opcode != BO_Mul) return false;
  const std::string l = referenced_name(m->lhs), r = referenced_name(m->rhs);
  const auto state = [](const Expr* x, const std::string& name) {
    return !integer_literal(x) && !isa<FloatingLiteral>(strip(x)) && !is_momentum_name(name);
  };
  return (is_momentum_name(l) && state(m->rhs, r)) || (is_momentum_name(r) && state(m->lhs, l));
}

void momentum_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || (b->opcode != BO_Add && b->opcode != BO_Sub) || (b->overloaded && !b->dependent)) return;
  const auto* e = cast<Expr>(&s);
  if (momentum_product(b->lhs)) {
    const auto t = b->opcode == BO_Add ? sites.text(b->rhs) : sites.operand_text(b->rhs);
    if (t) sites.replace(optimizer_momentum, e->getSourceRange(), b->opcode == BO_Add ? *t : "-" + *t);
  } else if (momentum_product(b->rhs)) {
    if (const auto t = sites.text(b->lhs)) sites.replace(optimizer_momentum, e->getSourceRange(), *t);
  }
}

bool is_literal_one(const Expr* e) {
  if (integer_literal(e) == 1) return true;
  const auto* f = dyn_cast<FloatingLiteral>(strip(e));
  return f && f->getValueAsApproximateDouble() == 1.0;
}

// A bias-correction name, or the square root of one.
bool bias_correction(const Expr* e) {
  e = strip(e);
  if (const auto* call = dyn_cast<CallExpr>(e);
      call && call->getNumArgs() == 1 && callee_name(call).find("sqrt") != std::string::npos)
    e = call->getArg(0);
  return is_bias_correction_name(referenced_name(e));
}

void bias_correction_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || b->overloaded) return;
  const auto* e = cast<Expr>(&s);
  if (b->opcode == BO_Sub && is_literal_one(b->lhs)) {
    const auto* call = dyn_cast<CallExpr>(strip(b->rhs));
    if (call && call->getNumArgs() == 2 && callee_name(call).find("pow") != std::string::npos &&
        is_momentum_name(referenced_name(call->getArg(0))))
      if (const auto t = sites.text(b->lhs)) sites.replace(optimizer_bias_correction, e->getSourceRange(), *t);
  } else if (b->opcode == BO_Div && bias_correction(b->rhs)) {
    if (const auto t = sites.text(b->lhs)) sites.replace(optimizer_bias_correction, e->getSourceRange(), *t);
  } else if (b->opcode == BO_Mul && (bias_correction(b->lhs) || bias_correction(b->rhs))) {
    const Expr* other = bias_correction(b->lhs) ? b->rhs : b->lhs;
    if (const auto t = sites.text(other)) sites.replace(optimizer_bias_correction, e->getSourceRange(), *t);
  }
}

void learning_rate_op(const Stmt& s, Sites& sites) {
  const auto* ref = dyn_cast<Expr>(&s);
  if (!ref || !(isa<DeclRefExpr>(ref) || isa<MemberExpr>(ref)) || !is_learning_rate_name(referenced_name(ref))) return;
  const Stmt* p = sites.semantic_parent(ref);
  const auto b = as_binary(p);
  if (!b || b->overloaded) return;
  const bool is_lhs = strip(b->lhs) == ref;
  if (b->opcode != BO_Mul && !(b->opcode == BO_Div && is_lhs)) return;
  const auto t = sites.text(ref);
  if (!t) return;
  sites.replace(optimizer_learning_rate, ref->getSourceRange(), *t + " * " + *t);
  if (b->opcode == BO_Mul) {
    if (const auto other = sites.text(is_lhs ? b->rhs : b->lhs))
      sites.replace(optimizer_learning_rate, cast<Expr>(p)->getSourceRange(), *other);
  } else {
    const bool single = ref->getType().getCanonicalType()->isSpecificBuiltinType(BuiltinType::Float);
    sites.replace(optimizer_learning_rate, ref->getSourceRange(), single ? "1.0f" : "1.0");
  }
}

// (eps side, other side) when `e` is `A + eps` or `eps + A`.
std::optional<std::pair<const Expr*, const Expr*>> epsilon_sum(const Expr* e) {
  const auto b = as_binary(strip(e));
  if (!b || b->opcode != BO_Add || (b->overloaded && !b->dependent)) return std::nullopt;
  if (is_epsilon_name(referenced_name(b->rhs))) return std::pair{b->rhs, b->lhs};
  if (is_epsilon_name(referenced_name(b->lhs))) return std::pair{b->lhs, b->rhs};
  return std::nullopt;
}

const CallExpr* sqrt_call(const Expr* e) {
  const auto* call = dyn_cast_or_null<CallExpr>(strip(e));
  if (!call || call->getNumArgs() != 1 || isa<CXXOperatorCallExpr>(call)) return nullptr;
  return callee_name(call).find("sqrt") != std::string::npos ? call : nullptr;
}

void epsilon_op(const Stmt& s, Sites& sites) {
  const auto* e = dyn_cast<Expr>(&s);
  // Parentheses and implicit casts are visited too: match the expression itself once.
  if (!e || isa<ParenExpr>(e) || isa<ImplicitCastExpr>(e)) return;
  if (const auto sum = epsilon_sum(e)) {
    if (const auto t = sites.text(sum->second)) sites.replace(remove_epsilon, e->getSourceRange(), *t);
    // sqrt(A) + eps → sqrt(A + eps)
    if (const auto* call = sqrt_call(sum->second)) {
      const auto callee = sites.text(call->getCallee()), arg = sites.text(call->getArg(0)),
                 eps = sites.text(sum->first);
      if (callee && arg && eps)
        sites.replace(misplace_epsilon, e->getSourceRange(), *callee + "(" + *arg + " + " + *eps + ")");
    }
    return;
  }
  // sqrt(A + eps) → (sqrt(A) + eps)
  if (const auto* call = sqrt_call(e)) {
    const auto inner = epsilon_sum(call->getArg(0));
    if (!inner) return;
    const auto callee = sites.text(call->getCallee()), other = sites.text(inner->second),
               eps = sites.text(inner->first);
    if (callee && other && eps)
      sites.replace(misplace_epsilon, e->getSourceRange(), "(" + *callee + "(" + *other + ") + " + *eps + ")");
  }
}

}  // namespace

void training_operators(const Stmt& s, Sites& sites) {
  if (sites.on(gradient_sign) || sites.on(gradient_scale)) gradient_op(s, sites);
  if (sites.on(optimizer_momentum)) momentum_op(s, sites);
  if (sites.on(optimizer_bias_correction)) bias_correction_op(s, sites);
  if (sites.on(optimizer_learning_rate)) learning_rate_op(s, sites);
  if (sites.on(remove_epsilon) || sites.on(misplace_epsilon)) epsilon_op(s, sites);
}

}  // namespace dlfl::mutate::detail
