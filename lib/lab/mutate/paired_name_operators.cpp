// Operators that exchange a name for its partner: in ↔ out (swap_in_out, bug type model:
// a layer wired with its fan-in and fan-out, input and output channels, exchanged) and
// height ↔ width (swap_height_width, tensor). The partner must be declared where the
// name is used and have the same type, so the mutant compiles: a field of the same
// record, a parameter of the same function, a local declared earlier in an enclosing
// block (not across a lambda boundary), or an enumerator of the same enum.
#include <clang/AST/ParentMapContext.h>

#include "names.h"
#include "operator_families.h"

namespace dlfl::mutate::detail {
namespace {

using namespace clang;
using enum Operator;

// Whether local `v` is in scope at `use`: its declaration's block encloses the use, and
// it is declared before it.
bool in_scope(const VarDecl* v, const Stmt* use, Sites& sites) {
  auto& ctx = sites.context();
  if (!sites.sources().isBeforeInTranslationUnit(v->getEndLoc(), use->getBeginLoc())) return false;
  const Stmt* block = nullptr;
  for (const auto& p : ctx.getParents(*v))
    if (const auto* ds = p.get<DeclStmt>()) block = sites.parent(ds);
  if (!block) return false;
  for (const Stmt* s = use; s; s = sites.parent(s)) {
    if (s == block) return true;
    if (isa<LambdaExpr>(s)) return false;
  }
  return false;
}

// The declaration named `name` that can stand in for `d` at `use`, if any.
const NamedDecl* partner(const ValueDecl* d, const std::string& name, const Stmt* use, Sites& sites) {
  const QualType type = d->getType().getCanonicalType();
  const auto same = [&](const ValueDecl* x) {
    return x != d && x->getNameAsString() == name && x->getType().getCanonicalType() == type;
  };
  if (const auto* field = dyn_cast<FieldDecl>(d)) {
    for (const FieldDecl* f : field->getParent()->fields())
      if (same(f)) return f;
    return nullptr;
  }
  if (const auto* e = dyn_cast<EnumConstantDecl>(d)) {
    if (const auto* en = dyn_cast<EnumDecl>(e->getDeclContext()))
      for (const EnumConstantDecl* c : en->enumerators())
        if (c->getNameAsString() == name) return c;
    return nullptr;
  }
  const FunctionDecl* fn = sites.function().decl;
  if (isa<ParmVarDecl>(d)) {
    for (const ParmVarDecl* p : fn->parameters())
      if (same(p)) return p;
    return nullptr;
  }
  if (const auto* v = dyn_cast<VarDecl>(d); v && v->isLocalVarDecl()) {
    for (const Decl* x : fn->decls())
      if (const auto* local = dyn_cast<VarDecl>(x); local && same(local) && in_scope(local, use, sites)) return local;
    // Parameters are in scope everywhere in the body.
    for (const ParmVarDecl* p : fn->parameters())
      if (same(p)) return p;
  }
  return nullptr;
}

void swap_names(const Stmt& s, Sites& sites, Operator op,
                std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  const ValueDecl* d = nullptr;
  SourceLocation name_loc;
  if (const auto* r = dyn_cast<DeclRefExpr>(&s)) {
    d = r->getDecl();
    name_loc = r->getLocation();
  } else if (const auto* m = dyn_cast<MemberExpr>(&s)) {
    d = m->getMemberDecl();
    name_loc = m->getMemberLoc();
  }
  if (!d || !d->getDeclName().isIdentifier() || !sites.selectable(name_loc)) return;
  for (const auto& candidate : counterpart_names(d->getName(), pairs))
    if (partner(d, candidate, &s, sites)) sites.replace(op, SourceRange(name_loc, name_loc), candidate);
}

}  // namespace

void paired_name_operators(const Stmt& s, Sites& sites) {
  if (!isa<DeclRefExpr>(s) && !isa<MemberExpr>(s)) return;
  if (sites.on(swap_in_out)) swap_names(s, sites, swap_in_out, {{"in", "out"}});
  if (sites.on(swap_height_width))
    swap_names(s, sites, swap_height_width,
               {{"h", "w"},
                {"height", "width"},
                {"rows", "cols"},
                {"nrows", "ncols"},
                {"kh", "kw"},
                {"oh", "ow"},
                {"ih", "iw"},
                {"sh", "sw"},
                {"ph", "pw"},
                {"dh", "dw"}});
}

}  // namespace dlfl::mutate::detail
