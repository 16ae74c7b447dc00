// The traditional operators (Offutt-style mutation: operator, constant, condition,
// statement, argument and unary changes), restricted to edits that keep the code compiling:
//  - builtin operators only, or operators in templates whose operand types are not known
//    yet; a resolved overloaded operator is only flipped between == and != (a class that
//    has one has, in C++20, both);
//  - types decide: no `%` on floating operands, `p + i` but not `i + p` → `i - p`, no
//    relational comparison against nullptr;
//  - literals in constant contexts (case labels, template arguments, array bounds) are
//    never reached: the visitor does not hand them out.
#include <charconv>
#include <cmath>

#include "operator_families.h"

namespace dlfl::mutate::detail {
namespace {

using namespace clang;
using enum Operator;

std::string op_text(BinaryOperatorKind k) { return BinaryOperator::getOpcodeStr(k).str(); }

bool is_relational(BinaryOperatorKind k) { return k == BO_LT || k == BO_LE || k == BO_GT || k == BO_GE; }
bool is_comparison(BinaryOperatorKind k) { return is_relational(k) || k == BO_EQ || k == BO_NE; }

// `<` ↔ `<=`, `>` ↔ `>=` on every comparison of a loop condition (through && and ||).
void loop_bound_in(const Expr* cond, Sites& sites) {
  const auto b = as_binary(strip(cond));
  if (!b) return;
  if (b->opcode == BO_LAnd || b->opcode == BO_LOr) {
    loop_bound_in(b->lhs, sites);
    loop_bound_in(b->rhs, sites);
    return;
  }
  if (!is_relational(b->opcode) || (b->overloaded && !b->dependent)) return;
  static constexpr std::pair<BinaryOperatorKind, BinaryOperatorKind> kFlip[] = {
      {BO_LT, BO_LE}, {BO_LE, BO_LT}, {BO_GT, BO_GE}, {BO_GE, BO_GT}};
  for (const auto& [from, to] : kFlip)
    if (b->opcode == from) sites.replace(loop_bound, b->op_loc, op_text(to));
}

void loop_bound_op(const Stmt& s, Sites& sites) {
  if (const auto* f = dyn_cast<ForStmt>(&s)) loop_bound_in(f->getCond(), sites);
  if (const auto* w = dyn_cast<WhileStmt>(&s)) loop_bound_in(w->getCond(), sites);
  if (const auto* d = dyn_cast<DoStmt>(&s)) loop_bound_in(d->getCond(), sites);
}

void negate(const Expr* cond, Sites& sites) {
  if (!cond) return;
  const Expr* bare = cond->IgnoreImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(bare); u && u->getOpcode() == UO_LNot) {
    if (auto t = sites.text(u->getSubExpr())) sites.replace(negate_condition, cond->getSourceRange(), *t);
    return;
  }
  if (auto t = sites.text(cond)) sites.replace(negate_condition, cond->getSourceRange(), "!(" + *t + ")");
}

void negate_condition_op(const Stmt& s, Sites& sites) {
  if (const auto* i = dyn_cast<IfStmt>(&s); i && !i->isConstexpr() && !i->getConditionVariable())
    negate(i->getCond(), sites);
  if (const auto* w = dyn_cast<WhileStmt>(&s); w && !w->getConditionVariable()) negate(w->getCond(), sites);
  if (const auto* f = dyn_cast<ForStmt>(&s); f && !f->getConditionVariable()) negate(f->getCond(), sites);
  if (const auto* d = dyn_cast<DoStmt>(&s)) negate(d->getCond(), sites);
  if (const auto* c = dyn_cast<ConditionalOperator>(&s)) negate(c->getCond(), sites);
}

bool null_constant(const Expr* e, ASTContext& ctx) {
  return e->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
}

void relational_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || !is_comparison(b->opcode)) return;
  bool all = b->dependent;
  if (!b->overloaded && !b->dependent) {
    const QualType l = strip(b->lhs)->getType().getCanonicalType(), r = strip(b->rhs)->getType().getCanonicalType();
    const bool numbers =
        (l->isArithmeticType() || l->isEnumeralType()) && (r->isArithmeticType() || r->isEnumeralType());
    const bool pointers = l->isPointerType() && r->isPointerType() && !null_constant(b->lhs, sites.context()) &&
                          !null_constant(b->rhs, sites.context());
    all = numbers || pointers;
  }
  static constexpr BinaryOperatorKind kAll[] = {BO_LT, BO_LE, BO_GT, BO_GE, BO_EQ, BO_NE};
  for (BinaryOperatorKind to : kAll) {
    if (to == b->opcode) continue;
    if (!all && !((b->opcode == BO_EQ && to == BO_NE) || (b->opcode == BO_NE && to == BO_EQ))) continue;
    sites.replace(relational_replace, b->op_loc, op_text(to));
  }
}

void logical_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || (b->overloaded && !b->dependent)) return;
  if (b->opcode == BO_LAnd) sites.replace(logical_replace, b->op_loc, "||");
  if (b->opcode == BO_LOr) sites.replace(logical_replace, b->op_loc, "&&");
}

void arithmetic_op(const Stmt& s, Sites& sites) {
  const auto b = as_binary(&s);
  if (!b || (b->overloaded && !b->dependent)) return;
  bool lhs_pointer = false, rhs_pointer = false;
  if (!b->dependent) {
    lhs_pointer = b->lhs->getType()->isPointerType();
    rhs_pointer = b->rhs->getType()->isPointerType();
  }
  std::optional<BinaryOperatorKind> to;
  switch (b->opcode) {
    case BO_Add:
      if (!rhs_pointer) to = BO_Sub;
      break;
    case BO_Sub:
      if (!(lhs_pointer && rhs_pointer)) to = BO_Add;
      break;
    case BO_Mul: to = BO_Div; break;
    case BO_Div: to = BO_Mul; break;
    case BO_Rem: to = BO_Div; break;
    case BO_AddAssign: to = BO_SubAssign; break;
    case BO_SubAssign: to = BO_AddAssign; break;
    case BO_MulAssign: to = BO_DivAssign; break;
    case BO_DivAssign: to = BO_MulAssign; break;
    default: break;
  }
  if (to) sites.replace(arithmetic_replace, b->op_loc, op_text(*to));
}

// Shortest decimal that reads back as `v`, always with a '.' or exponent so it stays a
// floating literal.
std::string format_floating(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, ec == std::errc() ? end : buf);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

void constant_op(const Stmt& s, Sites& sites) {
  if (!sites.on(constant_replace)) return;
  if (const auto* b = dyn_cast<CXXBoolLiteralExpr>(&s)) {
    sites.replace(constant_replace, b->getSourceRange(), b->getValue() ? "false" : "true");
    return;
  }
  const auto* lit = dyn_cast<Expr>(&s);
  if (!lit || !(isa<IntegerLiteral>(lit) || isa<FloatingLiteral>(lit))) return;
  // `0` as a null pointer: any other value would not convert.
  if (const auto* cast = dyn_cast_or_null<ImplicitCastExpr>(sites.parent(&s));
      cast && (cast->getCastKind() == CK_NullToPointer || cast->getCastKind() == CK_NullToMemberPointer))
    return;
  const auto spelled = sites.text(lit);
  if (!spelled || spelled->empty() || !std::isdigit(static_cast<unsigned char>(spelled->front()))) return;
  const std::string& t = *spelled;
  const std::size_t suffix_at = t.find_last_not_of("uUlLzZfF");
  const std::string digits = t.substr(0, suffix_at + 1), suffix = t.substr(suffix_at + 1);
  std::vector<std::string> values;
  if (const auto* i = dyn_cast<IntegerLiteral>(lit)) {
    // Decimal only: hex masks and octal modes are bit patterns, not quantities.
    if (digits.find_first_not_of("0123456789") != std::string::npos || (digits.size() > 1 && digits[0] == '0')) return;
    if (i->getValue().getActiveBits() > 62) return;
    const auto v = static_cast<std::int64_t>(i->getValue().getZExtValue());
    if (v == 0)
      values = {"1"};
    else if (v == 1)
      values = {"0", "2"};
    else
      values = {std::to_string(v - 1), std::to_string(v + 1)};
  } else {
    if (digits.find_first_of("xX'") != std::string::npos) return;
    const double v = cast<FloatingLiteral>(lit)->getValueAsApproximateDouble();
    if (!std::isfinite(v)) return;
    if (v == 0)
      values = {"1.0"};
    else if (v == 1)
      values = {"0.0", "2.0"};
    else if (v >= 1)
      values = {format_floating(v - 1), format_floating(v + 1)};
    else
      values = {format_floating(v + 1)};
  }
  for (const auto& v : values) sites.replace(constant_replace, lit->getSourceRange(), v + suffix);
}

// An expression statement whose removal changes state: a call, an assignment, ++/--
// (also in parentheses, as a macro writes it).
bool has_effect(const Expr* e) {
  if (const auto* c = dyn_cast<ExprWithCleanups>(e)) e = c->getSubExpr();
  e = e->IgnoreParens();
  if (isa<CallExpr>(e)) return true;  // calls, member calls, operator calls (a = b on classes)
  if (const auto* b = dyn_cast<BinaryOperator>(e)) return b->isAssignmentOp();
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return u->isIncrementDecrementOp();
  return false;
}

void delete_statement_op(const Stmt& s, Sites& sites) {
  const auto* block = dyn_cast<CompoundStmt>(&s);
  if (!block || !sites.on(delete_statement)) return;
  for (const Stmt* child : block->body()) {
    const auto* e = dyn_cast<Expr>(child);
    // A statement macro's use (`do { ... } while (0)`): the use as written goes.
    const bool macro_statement = isa<DoStmt>(child) && child->getBeginLoc().isMacroID();
    if ((e && has_effect(e)) || macro_statement) sites.remove_statement(delete_statement, child);
  }
}

// Functions whose arguments commute: swapping them makes an equivalent mutant.
bool symmetric(const std::string& name) {
  static const std::set<std::string> kNames = {"max",    "min",   "fmax", "fmin",  "fmaxf",  "fminf",
                                               "fmaxl",  "fminl", "swap", "hypot", "hypotf", "__hadd",
                                               "__hmul", "gcd",   "lcm",  "equal", "fdim"};
  return kNames.count(name) > 0;
}

QualType plain(QualType t) { return t.getNonReferenceType().getCanonicalType().getUnqualifiedType(); }

void swap_arguments_op(const Stmt& s, Sites& sites) {
  const auto* call = dyn_cast<CallExpr>(&s);
  if (!call || isa<CXXOperatorCallExpr>(call) || !sites.on(swap_arguments) || symmetric(callee_name(call))) return;
  const FunctionDecl* callee = call->getDirectCallee();
  for (unsigned i = 0; i + 1 < call->getNumArgs(); ++i) {
    const Expr* a = call->getArg(i);
    const Expr* b = call->getArg(i + 1);
    if (isa<CXXDefaultArgExpr>(a) || isa<CXXDefaultArgExpr>(b) || a->isTypeDependent() || b->isTypeDependent())
      continue;
    if (plain(a->IgnoreImpCasts()->getType()) != plain(b->IgnoreImpCasts()->getType())) continue;
    if (callee && i + 1 < callee->getNumParams() &&
        plain(callee->getParamDecl(i)->getType()) != plain(callee->getParamDecl(i + 1)->getType()))
      continue;
    const auto ta = sites.text(a), tb = sites.text(b);
    if (!ta || !tb || *ta == *tb) continue;
    sites.splice(swap_arguments, SourceRange(a->getBeginLoc(), b->getEndLoc()),
                 {{a->getSourceRange(), *tb}, {b->getSourceRange(), *ta}});
  }
}

// Whether `a` comes before `b` in the translation unit, both where they are written in
// the file (a macro's use, for a location inside one).
bool before(const SourceManager& sm, SourceLocation a, SourceLocation b) {
  return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(a), sm.getExpansionLoc(b));
}

// A variable passed to a call (a parameter or local of a scalar type) -> each other
// parameter, and each local whose scope holds the call and whose declaration ends before
// it, of the same type: the wrong variable passed, a fault no other operator makes.
void argument_replace_op(const Stmt& s, Sites& sites) {
  const auto* call = dyn_cast<CallExpr>(&s);
  if (!call || isa<CXXOperatorCallExpr>(call) || call->isTypeDependent()) return;
  const FunctionContext& f = sites.function();
  if (!f.decl || f.decl->isDependentContext()) return;
  const SourceManager& sm = sites.sources();
  for (const Expr* arg : call->arguments()) {
    const auto* ref = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts());
    const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !var->isLocalVarDeclOrParm()) continue;
    const QualType type = plain(var->getType());
    if (!type->isScalarType()) continue;
    const SourceLocation at = ref->getBeginLoc();
    const auto replace_by = [&](const VarDecl* other) {
      if (other == var || other->getName().empty() || plain(other->getType()) != type) return;
      sites.replace(argument_replace, ref->getSourceRange(), other->getNameAsString());
    };
    for (const ParmVarDecl* p : f.decl->parameters()) replace_by(p);
    for (const ScopedVariable& local : f.locals)
      if (before(sm, local.var->getEndLoc(), at) && before(sm, local.scope->getBeginLoc(), at) &&
          before(sm, at, local.scope->getEndLoc()))
        replace_by(local.var);
  }
}

// `-e`, `~e`, `!e` -> `e` on numbers (bool included), so `e` stands where `-e` stood. In a
// condition `!c` -> `c` is negate_condition's edit too; the catalog's order keeps that one.
void unary_delete_op(const Stmt& s, Sites& sites) {
  const auto* u = dyn_cast<UnaryOperator>(&s);
  if (!u || (u->getOpcode() != UO_Minus && u->getOpcode() != UO_Not && u->getOpcode() != UO_LNot)) return;
  const Expr* operand = u->getSubExpr();
  if (!u->isTypeDependent()) {
    const QualType t = strip(operand)->getType().getCanonicalType();
    if (!(t->isArithmeticType() || t->isEnumeralType())) return;  // a class's operator-, a pointer's !
    // A negative literal is a constant, constant_replace's.
    if (u->getOpcode() == UO_Minus && isa<IntegerLiteral, FloatingLiteral>(strip(operand))) return;
  }
  if (const auto t = sites.text(operand)) sites.replace(unary_delete, u->getSourceRange(), *t);
}

// `++` <-> `--` on builtin numbers (and in templates, where the type is not known yet).
void increment_replace_op(const Stmt& s, Sites& sites) {
  const auto* u = dyn_cast<UnaryOperator>(&s);
  if (!u || !u->isIncrementDecrementOp()) return;
  if (!u->isTypeDependent() && !strip(u->getSubExpr())->getType()->isArithmeticType()) return;
  sites.replace(increment_replace, u->getOperatorLoc(), u->isIncrementOp() ? "--" : "++");
}

}  // namespace

void traditional_operators(const Stmt& s, Sites& sites) {
  if (sites.on(loop_bound)) loop_bound_op(s, sites);
  if (sites.on(negate_condition)) negate_condition_op(s, sites);
  if (sites.on(relational_replace)) relational_op(s, sites);
  if (sites.on(logical_replace)) logical_op(s, sites);
  if (sites.on(arithmetic_replace)) arithmetic_op(s, sites);
  constant_op(s, sites);
  delete_statement_op(s, sites);
  swap_arguments_op(s, sites);
  if (sites.on(unary_delete)) unary_delete_op(s, sites);
  if (sites.on(increment_replace)) increment_replace_op(s, sites);
  if (sites.on(argument_replace)) argument_replace_op(s, sites);
}

}  // namespace dlfl::mutate::detail
