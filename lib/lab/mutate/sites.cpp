// Sites: source ranges → checked byte edits, and the AST helpers of the operator families.
#include "sites.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "clang_units.h"

namespace dlfl::mutate::detail {

using namespace clang;

Sites::Sites(ASTContext& context, const std::array<bool, kOperatorCount>& enabled, const FileFilter& filter,
             std::vector<RawMutant>& out)
    : context_(context), sm_(context.getSourceManager()), enabled_(enabled), filter_(filter), out_(out) {}

bool Sites::selectable(SourceLocation loc) const {
  if (loc.isInvalid() || loc.isMacroID()) return false;
  const FileID fid = sm_.getFileID(loc);
  auto it = paths_.find(fid);
  if (it == paths_.end()) {
    std::optional<std::string> path;
    const auto entry = sm_.getFileEntryRefForID(fid);
    if (entry && !SrcMgr::isSystem(sm_.getFileCharacteristic(loc))) {
      const std::string real = real_file_path(*entry);
      if (filter_(real)) path = real;
    }
    it = paths_.emplace(fid, std::move(path)).first;
  }
  return it->second.has_value();
}

std::optional<Sites::FileRange> Sites::file_range(SourceRange tokens) const {
  const SourceLocation b = tokens.getBegin(), e = tokens.getEnd();
  if (b.isInvalid() || e.isInvalid()) return std::nullopt;
  if (b.isMacroID() || e.isMacroID()) {
    // Text written at a macro's use: inside one argument, or the whole use. clang maps
    // such a range back to the file; a range in a macro's body maps nowhere (an edit
    // there would change every use).
    const CharSourceRange chars = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(b, e), sm_, lang());
    if (chars.isInvalid()) return std::nullopt;
    const auto [bf, bo] = sm_.getDecomposedLoc(chars.getBegin());
    const auto [ef, eo] = sm_.getDecomposedLoc(chars.getEnd());
    if (bf != ef || eo < bo) return std::nullopt;
    return FileRange{bf, bo, eo};
  }
  const auto [bf, bo] = sm_.getDecomposedLoc(b);
  const auto [ef, eo] = sm_.getDecomposedLoc(e);
  if (bf != ef) return std::nullopt;
  const unsigned end = eo + Lexer::MeasureTokenLength(e, sm_, lang());
  if (end < bo) return std::nullopt;
  return FileRange{bf, bo, end};
}

std::optional<std::string> Sites::text(SourceRange tokens) const {
  const auto r = file_range(tokens);
  if (!r) return std::nullopt;
  return sm_.getBufferData(r->file).substr(r->begin, r->end - r->begin).str();
}

std::optional<std::string> Sites::operand_text(const Expr* e) const {
  auto t = text(e);
  if (!t) return t;
  const Expr* s = e->IgnoreImpCasts();
  if (isa<DeclRefExpr, MemberExpr, IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral, ParenExpr,
          CallExpr, ArraySubscriptExpr, CXXNamedCastExpr, CXXFunctionalCastExpr, CXXTemporaryObjectExpr,
          PseudoObjectExpr, MSPropertyRefExpr, DependentScopeDeclRefExpr, CXXDependentScopeMemberExpr,
          UnresolvedLookupExpr, UnresolvedMemberExpr, CXXThisExpr>(s)) {
    // Overloaded operators are calls too, but only a[i] and f(x) are postfix.
    const auto* op = dyn_cast<CXXOperatorCallExpr>(s);
    if (!op || op->getOperator() == OO_Subscript || op->getOperator() == OO_Call) return t;
  }
  return "(" + *t + ")";
}

void Sites::record(Operator op, const FileRange& r, std::string replacement) {
  const StringRef buffer = sm_.getBufferData(r.file);
  const std::string original = buffer.substr(r.begin, r.end - r.begin).str();
  if (original == replacement) return;
  // A preprocessor line inside the edit (an #if between two arguments) would be lost or
  // duplicated by rebuilding the text: leave such sites alone.
  for (std::size_t nl = original.find('\n'); nl != std::string::npos; nl = original.find('\n', nl + 1)) {
    const std::size_t next = original.find_first_not_of(" \t\r", nl + 1);
    if (next != std::string::npos && original[next] == '#') return;
  }
  if (!selectable(sm_.getComposedLoc(r.file, r.begin))) return;
  RawMutant m;
  m.path = *paths_.at(r.file);
  m.offset = r.begin;
  m.original = original;
  m.replacement = std::move(replacement);
  m.line = sm_.getLineNumber(r.file, r.begin);
  m.column = sm_.getColumnNumber(r.file, r.begin);
  m.end_line = sm_.getLineNumber(r.file, r.end > r.begin ? r.end - 1 : r.begin);
  m.op = op;
  m.function = function_ ? function_->qualified_name : std::string();
  out_.push_back(std::move(m));
}

void Sites::replace(Operator op, SourceRange tokens, std::string replacement) {
  if (!on(op)) return;
  if (const auto r = file_range(tokens)) record(op, *r, std::move(replacement));
}

void Sites::replace_chars(Operator op, SourceLocation begin, SourceLocation end, std::string replacement) {
  if (!on(op) || begin.isInvalid() || end.isInvalid() || begin.isMacroID() || end.isMacroID()) return;
  const auto [bf, bo] = sm_.getDecomposedLoc(begin);
  const auto [ef, eo] = sm_.getDecomposedLoc(end);
  if (bf == ef && bo <= eo) record(op, FileRange{bf, bo, eo}, std::move(replacement));
}

void Sites::splice(Operator op, SourceRange outer, const std::vector<std::pair<SourceRange, std::string>>& inner) {
  if (!on(op)) return;
  const auto o = file_range(outer);
  if (!o) return;
  const StringRef buffer = sm_.getBufferData(o->file);
  std::string out;
  unsigned at = o->begin;
  for (const auto& [range, replacement] : inner) {
    const auto r = file_range(range);
    if (!r || r->file != o->file || r->begin < at || r->end > o->end) return;
    out += buffer.substr(at, r->begin - at).str();
    out += replacement;
    at = r->end;
  }
  out += buffer.substr(at, o->end - at).str();
  record(op, *o, std::move(out));
}

void Sites::remove_statement(Operator op, const Stmt* s) {
  if (!on(op) || !s) return;
  auto r = file_range(s->getSourceRange());
  if (!r) return;
  // The `;` after the statement's last character as written (after a macro's use, not
  // inside its body).
  const SourceLocation last =
      s->getEndLoc().isFileID()
          ? s->getEndLoc()
          : Lexer::GetBeginningOfToken(sm_.getComposedLoc(r->file, r->end > r->begin ? r->end - 1 : r->end), sm_, lang());
  const SourceLocation after_semi =
      Lexer::findLocationAfterToken(last, tok::semi, sm_, lang(), /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (after_semi.isValid() && !after_semi.isMacroID() && sm_.getFileID(after_semi) == r->file)
    r->end = sm_.getFileOffset(after_semi);
  const Stmt* p = parent(s);
  if (!p || !isa<CompoundStmt>(p)) {
    record(op, *r, ";");
    return;
  }
  // Alone on its line: the line goes, so the patch shows no blank leftover.
  const StringRef buffer = sm_.getBufferData(r->file);
  const std::size_t line_begin = buffer.rfind('\n', r->begin == 0 ? 0 : r->begin - 1);
  const std::size_t first = line_begin == StringRef::npos || r->begin == 0 ? 0 : line_begin + 1;
  const std::size_t line_end = buffer.find('\n', r->end);
  const bool blank_before = buffer.substr(first, r->begin - first).find_first_not_of(" \t") == StringRef::npos;
  const bool blank_after = buffer.substr(r->end, (line_end == StringRef::npos ? buffer.size() : line_end) - r->end)
                               .find_first_not_of(" \t\r") == StringRef::npos;
  if (blank_before && blank_after && line_end != StringRef::npos) {
    r->begin = static_cast<unsigned>(first);
    r->end = static_cast<unsigned>(line_end + 1);
  }
  record(op, *r, "");
}

const Stmt* Sites::parent(const Stmt* s) const {
  const auto parents = context_.getParents(*s);
  return parents.empty() ? nullptr : parents[0].get<Stmt>();
}

const Stmt* Sites::semantic_parent(const Stmt* s) const {
  const Stmt* p = parent(s);
  while (p && (isa<ParenExpr>(p) || isa<ImplicitCastExpr>(p))) p = parent(p);
  return p;
}

// --- helpers ------------------------------------------------------------------------

std::optional<BinaryView> as_binary(const Stmt* s) {
  if (const auto* b = dyn_cast_or_null<BinaryOperator>(s))
    return BinaryView{b->getOpcode(), b->getLHS(), b->getRHS(), b->getOperatorLoc(), false, b->isTypeDependent()};
  if (const auto* r = dyn_cast_or_null<CXXRewrittenBinaryOperator>(s)) {
    const auto d = r->getDecomposedForm();
    return BinaryView{d.Opcode, d.LHS, d.RHS, r->getOperatorLoc(), true, r->isTypeDependent()};
  }
  const auto* call = dyn_cast_or_null<CXXOperatorCallExpr>(s);
  if (!call || call->getNumArgs() != 2) return std::nullopt;
  switch (call->getOperator()) {
    case OO_Plus:
    case OO_Minus:
    case OO_Star:
    case OO_Slash:
    case OO_Percent:
    case OO_Less:
    case OO_Greater:
    case OO_LessEqual:
    case OO_GreaterEqual:
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_AmpAmp:
    case OO_PipePipe:
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
    case OO_Equal: break;
    default: return std::nullopt;
  }
  return BinaryView{BinaryOperator::getOverloadedOpcode(call->getOperator()),
                    call->getArg(0),
                    call->getArg(1),
                    call->getOperatorLoc(),
                    true,
                    call->isTypeDependent()};
}

const Expr* strip(const Expr* e) { return e ? e->IgnoreParenImpCasts() : nullptr; }

const Expr* strip_casts(const Expr* e) { return e ? e->IgnoreParenCasts() : nullptr; }

std::string referenced_name(const Expr* e) {
  e = strip(e);
  if (const auto* d = dyn_cast_or_null<DeclRefExpr>(e)) return d->getDecl()->getNameAsString();
  if (const auto* m = dyn_cast_or_null<MemberExpr>(e)) return m->getMemberDecl()->getNameAsString();
  if (const auto* d = dyn_cast_or_null<DependentScopeDeclRefExpr>(e)) return d->getDeclName().getAsString();
  if (const auto* m = dyn_cast_or_null<CXXDependentScopeMemberExpr>(e)) return m->getMember().getAsString();
  return {};
}

std::string base_name(const Expr* e) {
  for (int depth = 0; e && depth < 16; ++depth) {
    e = strip_casts(e);
    if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
      e = a->getBase();
    } else if (const auto* o = dyn_cast<CXXOperatorCallExpr>(e); o && o->getOperator() == OO_Subscript) {
      e = o->getArg(0);
    } else if (const auto* c = dyn_cast<CallExpr>(e)) {
      return callee_name(c);
    } else {
      return referenced_name(e);
    }
  }
  return {};
}

std::string cuda_builtin(const Expr* e) {
  e = strip_casts(e);
  if (const auto* p = dyn_cast_or_null<PseudoObjectExpr>(e)) e = strip_casts(p->getSyntacticForm());
  if (const auto* m = dyn_cast_or_null<MSPropertyRefExpr>(e)) e = strip_casts(m->getBaseExpr());
  if (const auto* o = dyn_cast_or_null<OpaqueValueExpr>(e)) e = strip_casts(o->getSourceExpr());
  const auto* d = dyn_cast_or_null<DeclRefExpr>(e);
  if (!d) return {};
  const std::string name = d->getDecl()->getNameAsString();
  return name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim" ? name : std::string();
}

std::optional<std::int64_t> integer_literal(const Expr* e) {
  e = strip(e);
  if (const auto* u = dyn_cast_or_null<UnaryOperator>(e); u && u->getOpcode() == UO_Minus) {
    const auto v = integer_literal(u->getSubExpr());
    return v ? std::optional<std::int64_t>(-*v) : std::nullopt;
  }
  if (const auto* l = dyn_cast_or_null<IntegerLiteral>(e); l && l->getValue().getActiveBits() < 63)
    return static_cast<std::int64_t>(l->getValue().getZExtValue());
  return std::nullopt;
}

bool is_scalar_arithmetic(const Expr* e) {
  if (!e || e->isTypeDependent()) return false;
  const QualType t = e->getType().getCanonicalType();
  return t->isArithmeticType() && !t->isEnumeralType();
}

bool is_integer(const Expr* e) {
  if (!e || e->isTypeDependent()) return false;
  const QualType t = e->getType().getCanonicalType();
  return t->isIntegerType() && !t->isBooleanType() && !t->isEnumeralType();
}

std::string callee_name(const CallExpr* call) {
  if (const auto* f = call->getDirectCallee()) return f->getNameAsString();
  const Expr* callee = strip(call->getCallee());
  if (const auto* u = dyn_cast_or_null<UnresolvedLookupExpr>(callee)) return u->getName().getAsString();
  if (const auto* u = dyn_cast_or_null<UnresolvedMemberExpr>(callee)) return u->getMemberName().getAsString();
  return referenced_name(callee);
}

}  // namespace dlfl::mutate::detail
