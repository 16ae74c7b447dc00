// Probe placement: walks every function body written in an instrumentable file and
// decides where a probe goes (see the rules below); nothing is rewritten here.
//
// Rules (each keeps the rewritten code compiling and the probe's meaning exact):
//  - Bodies of templates are probed once, in the template (instantiations are not
//    visited); lambdas are probed in their own body; implicit code never.
//  - A probe goes before each statement that runs code in a compound statement; after
//    `case`/`default`/label prefixes, so a fall-through into the case is counted.
//  - A lone sub-statement of if/else/for/while/do gets braces: `if (c) { P; return; }`.
//  - Nothing inside a macro expansion: a statement that is entirely one macro invocation is
//    probed before the invocation; statements starting or ending inside one are skipped.
//  - constexpr functions and lambdas (implicitly constexpr since C++17) get guarded
//    probes, `if (!__builtin_is_constant_evaluated()) ...`, which cost nothing at run
//    time and keep constant evaluation valid; consteval functions and coroutines are left
//    untouched.
//  - The first probe of a body also stands for the function's name line (gcov counts the
//    function there); an empty body gets a probe of its own after `{`.
//  - Block granularity: a statement shares the previous statement's probe when clang's CFG
//    puts both in the same basic block (templates: when the previous statement has no
//    control flow and no call to a noreturn function, the same test done on the syntax).
#include "probe_planner.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Analysis/CFG.h>
#include <clang/Analysis/CFGStmtMap.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>

#include <llvm/Support/FileSystem.h>

#include <optional>

namespace dlfl::instrument::detail {
namespace {

using namespace clang;

// Everything the walker needs about the function whose body it is in.
struct BodyContext {
  std::string function;
  ProbeSpace space = ProbeSpace::host;
  bool macro_form = false;
  bool guarded = false;
  // Block granularity on non-dependent code: the CFG and a statement → block lookup.
  std::unique_ptr<CFG> cfg;
  std::unique_ptr<ParentMap> parents;
  std::unique_ptr<CFGStmtMap> blocks;
};

// Whether a statement can transfer control anywhere but to its successor (syntax only;
// used where no CFG can be built, i.e. in templates).
bool has_control_flow(const Stmt* s) {
  if (!s) return false;
  if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt, ReturnStmt, BreakStmt, ContinueStmt,
          GotoStmt, IndirectGotoStmt, CXXTryStmt, CXXThrowExpr, AbstractConditionalOperator, CoreturnStmt,
          CoawaitExpr, CoyieldExpr, StmtExpr, SwitchCase, LabelStmt>(s))
    return true;
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isLogicalOp()) return true;
  if (const auto* call = dyn_cast<CallExpr>(s)) {
    if (const auto* callee = call->getDirectCallee(); callee && callee->isNoReturn()) return true;
  }
  if (isa<LambdaExpr>(s)) return false;  // its body runs elsewhere
  for (const Stmt* child : s->children())
    if (has_control_flow(child)) return true;
  return false;
}

class Planner : public RecursiveASTVisitor<Planner> {
 public:
  Planner(ASTContext& ctx, const PlannerConfig& config, PlanSet& plans)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lang_(ctx.getLangOpts()), config_(config), plans_(plans) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl* fd) { return traverse_named(fd, &Planner::base_traverse_function); }
  bool TraverseCXXMethodDecl(CXXMethodDecl* fd) { return traverse_named(fd, &Planner::base_traverse_method); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl* fd) {
    return traverse_named(fd, &Planner::base_traverse_constructor);
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl* fd) {
    return traverse_named(fd, &Planner::base_traverse_destructor);
  }
  bool TraverseCXXConversionDecl(CXXConversionDecl* fd) {
    return traverse_named(fd, &Planner::base_traverse_conversion);
  }

  bool VisitFunctionDecl(FunctionDecl* fd) {
    if (!fd->doesThisDeclarationHaveABody() || fd->isDefaulted() || fd->isDeleted() || fd->isImplicit()) return true;
    if (fd->isTemplateInstantiation()) return true;
    if (const auto* m = dyn_cast<CXXMethodDecl>(fd); m && m->getParent()->isLambda()) return true;
    Stmt* body = fd->getBody();
    if (!body || !in_instrumentable_file(body->getBeginLoc())) return true;
    if (fd->isConsteval() || isa<CoroutineBodyStmt>(body) || fd->hasAttr<NakedAttr>() ||
        (fd->isConstexpr() && !lang_.CPlusPlus14)) {
      ++plans_.skipped_functions;
      return true;
    }
    BodyContext ctx;
    ctx.function = fd->getQualifiedNameAsString();
    set_space(ctx, fd);
    ctx.guarded = fd->isConstexpr();
    plan_body(ctx, fd, body, fd->getLocation());
    return true;
  }

  bool VisitLambdaExpr(LambdaExpr* le) {
    CXXMethodDecl* op = le->getCallOperator();
    CompoundStmt* body = le->getCompoundStmtBody();
    if (!op || !body || !in_instrumentable_file(body->getBeginLoc())) return true;
    if (op->isConsteval() || isa<CoroutineBodyStmt>(op->getBody())) {
      ++plans_.skipped_functions;
      return true;
    }
    BodyContext ctx;
    const unsigned line = sm_.getExpansionLineNumber(le->getBeginLoc());
    ctx.function = (names_.empty() ? std::string() : names_.back() + "::") + "lambda@" + std::to_string(line);
    set_space(ctx, op);
    // Lambdas are implicitly constexpr since C++17: a probe must not stop one from being
    // used in a constant expression.
    ctx.guarded = lang_.CPlusPlus17 || op->isConstexpr();
    if (lang_.CUDA) ctx.macro_form = true;
    plan_body(ctx, op, body, le->getBeginLoc());
    return true;
  }

 private:
  using Base = RecursiveASTVisitor<Planner>;
  bool base_traverse_function(FunctionDecl* d) { return Base::TraverseFunctionDecl(d); }
  bool base_traverse_method(FunctionDecl* d) { return Base::TraverseCXXMethodDecl(cast<CXXMethodDecl>(d)); }
  bool base_traverse_constructor(FunctionDecl* d) {
    return Base::TraverseCXXConstructorDecl(cast<CXXConstructorDecl>(d));
  }
  bool base_traverse_destructor(FunctionDecl* d) { return Base::TraverseCXXDestructorDecl(cast<CXXDestructorDecl>(d)); }
  bool base_traverse_conversion(FunctionDecl* d) { return Base::TraverseCXXConversionDecl(cast<CXXConversionDecl>(d)); }

  // Keeps the enclosing function's name for the lambdas inside it.
  bool traverse_named(FunctionDecl* fd, bool (Planner::*base)(FunctionDecl*)) {
    names_.push_back(fd->getQualifiedNameAsString());
    const bool result = (this->*base)(fd);
    names_.pop_back();
    return result;
  }

  void set_space(BodyContext& ctx, const FunctionDecl* fd) const {
    const bool device = fd->hasAttr<CUDADeviceAttr>() || fd->hasAttr<CUDAGlobalAttr>();
    const bool host = fd->hasAttr<CUDAHostAttr>() || !device;
    ctx.space = device && host ? ProbeSpace::host_device : device ? ProbeSpace::device : ProbeSpace::host;
    ctx.macro_form = ctx.space != ProbeSpace::host;
  }

  std::string real_path(FileID fid) const {
    const FileEntry* entry = sm_.getFileEntryForID(fid);
    if (!entry) return {};
    // The real path is only recorded for files clang opened itself; resolve the others.
    if (!entry->tryGetRealPathName().empty()) return entry->tryGetRealPathName().str();
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(entry->getName(), real)) return {};
    return std::string(real.str());
  }

  bool in_instrumentable_file(SourceLocation loc) {
    if (loc.isInvalid()) return false;
    const FileID fid = sm_.getFileID(sm_.getExpansionLoc(loc));
    auto [it, inserted] = instrumentable_.try_emplace(fid.getHashValue(), false);
    if (inserted) it->second = config_.instrumentable(real_path(fid));
    return it->second;
  }

  // The statement's text as a range of one instrumentable file, or nothing when it starts
  // or ends inside a macro expansion (a whole-invocation statement maps to the invocation).
  std::optional<CharSourceRange> file_range(const Stmt* s) {
    const CharSourceRange r =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(s->getSourceRange()), sm_, lang_);
    if (r.isInvalid() || sm_.getFileID(r.getBegin()) != sm_.getFileID(r.getEnd())) return std::nullopt;
    if (!in_instrumentable_file(r.getBegin())) return std::nullopt;
    return r;
  }

  LineColumn line_column(SourceLocation loc) const {
    return {sm_.getSpellingLineNumber(loc), sm_.getSpellingColumnNumber(loc)};
  }

  void plan_body(BodyContext& ctx, const Decl* decl, Stmt* body, SourceLocation name_loc) {
    if (config_.granularity == ProbeGranularity::block && !decl->isInvalidDecl() &&
        !cast<DeclContext>(decl)->isDependentContext()) {
      CFG::BuildOptions options;
      ctx.cfg = CFG::buildCFG(decl, body, &ctx_, options);
      if (ctx.cfg) {
        ctx.parents = std::make_unique<ParentMap>(body);
        ctx.blocks.reset(CFGStmtMap::Build(ctx.cfg.get(), ctx.parents.get()));
      }
    }
    std::optional<LineColumn> entry = line_column(sm_.getExpansionLoc(name_loc));
    entry->column = 0;
    if (auto* try_body = dyn_cast<CXXTryStmt>(body)) {  // function-try-block
      plan_compound(ctx, try_body->getTryBlock(), entry);
      for (unsigned i = 0; i < try_body->getNumHandlers(); ++i)
        plan_compound(ctx, cast<CompoundStmt>(try_body->getHandler(i)->getHandlerBlock()), std::nullopt);
    } else if (auto* compound = dyn_cast<CompoundStmt>(body)) {
      plan_compound(ctx, compound, entry);
    }
  }

  static const Stmt* strip_labels(const Stmt* s) {
    while (true) {
      if (const auto* c = dyn_cast<SwitchCase>(s)) s = c->getSubStmt();
      else if (const auto* l = dyn_cast<LabelStmt>(s)) s = l->getSubStmt();
      else return s;
    }
  }

  // Statements that generate no code get no probe: `;`, `[[fallthrough]];`, declarations
  // of types, aliases, static_asserts, and variables without initialiser or constexpr.
  static bool runs_code(const Stmt* s) {
    if (const auto* a = dyn_cast<AttributedStmt>(s)) return runs_code(a->getSubStmt());
    if (isa<NullStmt>(s)) return false;
    if (const auto* d = dyn_cast<DeclStmt>(s)) {
      for (const Decl* decl : d->decls()) {
        const auto* var = dyn_cast<VarDecl>(decl);
        if (var && var->hasInit() && !var->isConstexpr()) return true;
      }
      return false;
    }
    return true;
  }

  PlannedProbe make_probe(const BodyContext& ctx, const CharSourceRange& range) {
    PlannedProbe p;
    p.offset = sm_.getFileOffset(range.getBegin());
    p.guarded = ctx.guarded;
    p.macro_form = ctx.macro_form;
    p.space = ctx.space;
    p.function = ctx.function;
    p.lines.push_back(line_column(range.getBegin()));
    return p;
  }

  void add(const std::string& file, PlannedProbe p, std::optional<LineColumn>& entry) {
    if (entry) {
      if (p.lines.front().line != entry->line) p.lines.push_back(*entry);
      entry.reset();
    }
    plans_.add(file, std::move(p));
  }

  // The CFG block holding all of `s` (not counting lambda bodies), or null when it spans
  // several blocks or the CFG does not know it.
  const CFGBlock* single_block(const BodyContext& ctx, const Stmt* s) const {
    const CFGBlock* block = ctx.blocks->getBlock(s);
    if (!block) return nullptr;
    bool same = true;
    std::function<void(const Stmt*)> visit = [&](const Stmt* child) {
      if (!child || !same || isa<LambdaExpr>(child)) return;
      if (const CFGBlock* b = ctx.blocks->getBlock(child); b && b != block) same = false;
      for (const Stmt* grandchild : child->children()) visit(grandchild);
    };
    for (const Stmt* child : s->children()) visit(child);
    return same ? block : nullptr;
  }

  // Whether `next` always runs when `previous` (straight before it, same compound) ran.
  bool same_block(const BodyContext& ctx, const Stmt* previous, const Stmt* next) const {
    if (config_.granularity != ProbeGranularity::block || !previous) return false;
    if (ctx.blocks) {
      const CFGBlock* block = single_block(ctx, previous);
      return block && ctx.blocks->getBlock(next) == block;
    }
    return !has_control_flow(previous);
  }

  void plan_compound(BodyContext& ctx, const CompoundStmt* compound, std::optional<LineColumn> entry) {
    std::string file;
    FileID group_file;
    bool have_group = false;
    const Stmt* previous = nullptr;  // last statement that ran code, in this compound
    PlannedProbe group;
    auto flush = [&] {
      if (have_group) add(file, std::move(group), entry);
      have_group = false;
    };
    for (const Stmt* child : compound->body()) {
      const Stmt* target = strip_labels(child);
      const bool labelled = target != child;
      if (const auto* nested = dyn_cast<CompoundStmt>(target)) {
        flush();
        plan_compound(ctx, nested, entry);
        entry.reset();
        previous = nullptr;
        continue;
      }
      std::optional<CharSourceRange> range;
      if (runs_code(target)) range = file_range(target);
      if (!range) {
        // A statement inside a macro or without code: no probe; its insides may get some.
        if (runs_code(target)) previous = nullptr;
        recurse(ctx, target, entry);
        continue;
      }
      if (have_group && !labelled && sm_.getFileID(range->getBegin()) == group_file &&
          same_block(ctx, previous, target)) {
        group.lines.push_back(line_column(range->getBegin()));
      } else {
        flush();
        group_file = sm_.getFileID(range->getBegin());
        file = real_path(group_file);
        group = make_probe(ctx, *range);
        have_group = true;
        if (entry) {  // before nested probes of this statement take the entry line
          if (group.lines.front().line != entry->line) group.lines.push_back(*entry);
          entry.reset();
        }
      }
      previous = target;
      recurse(ctx, target, entry);
    }
    flush();
    if (entry) plan_empty_body(ctx, compound, *entry);
  }

  // A body with nothing to probe still tells when the function ran.
  void plan_empty_body(const BodyContext& ctx, const CompoundStmt* compound, LineColumn entry) {
    const SourceLocation brace = compound->getLBracLoc();
    if (brace.isInvalid() || brace.isMacroID() || !in_instrumentable_file(brace)) return;
    PlannedProbe p;
    p.offset = sm_.getFileOffset(brace) + 1;
    p.guarded = ctx.guarded;
    p.macro_form = ctx.macro_form;
    p.space = ctx.space;
    p.function = ctx.function;
    p.lines.push_back(entry);
    plans_.add(real_path(sm_.getFileID(brace)), std::move(p));
  }

  // Statements whose source text ends before a `;` that belongs to them.
  static bool needs_semicolon(const Stmt* s) {
    if (const auto* i = dyn_cast<IfStmt>(s)) return needs_semicolon(i->getElse() ? i->getElse() : i->getThen());
    if (const auto* f = dyn_cast<ForStmt>(s)) return needs_semicolon(f->getBody());
    if (const auto* w = dyn_cast<WhileStmt>(s)) return needs_semicolon(w->getBody());
    if (const auto* r = dyn_cast<CXXForRangeStmt>(s)) return needs_semicolon(r->getBody());
    if (const auto* sw = dyn_cast<SwitchStmt>(s)) return needs_semicolon(sw->getBody());
    if (const auto* c = dyn_cast<SwitchCase>(s)) return needs_semicolon(c->getSubStmt());
    if (const auto* l = dyn_cast<LabelStmt>(s)) return needs_semicolon(l->getSubStmt());
    if (const auto* a = dyn_cast<AttributedStmt>(s)) return needs_semicolon(a->getSubStmt());
    return !isa<CompoundStmt, CXXTryStmt, DeclStmt, NullStmt>(s);
  }

  // Offset just past the statement's `;` (skipping blanks and comments), if there is one.
  std::optional<std::uint32_t> end_after_semicolon(const CharSourceRange& range) const {
    const FileID fid = sm_.getFileID(range.getEnd());
    const llvm::StringRef text = sm_.getBufferData(fid);
    std::size_t i = sm_.getFileOffset(range.getEnd());
    while (i < text.size()) {
      if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
        ++i;
      } else if (text.substr(i, 2) == "//") {
        i = text.find('\n', i);
      } else if (text.substr(i, 2) == "/*") {
        const std::size_t end = text.find("*/", i + 2);
        i = end == llvm::StringRef::npos ? end : end + 2;
      } else {
        break;
      }
    }
    if (i < text.size() && text[i] == ';') return static_cast<std::uint32_t>(i + 1);
    return std::nullopt;
  }

  // A sub-statement in a branch position (if/else/loop body).
  void plan_branch(BodyContext& ctx, const Stmt* s) {
    if (!s) return;
    if (const auto* compound = dyn_cast<CompoundStmt>(s)) {
      plan_compound(ctx, compound, std::nullopt);
      return;
    }
    std::optional<CharSourceRange> range;
    if (runs_code(s) && strip_labels(s) == s) range = file_range(s);
    std::optional<LineColumn> no_entry;
    if (!range) {
      recurse(ctx, s, no_entry);
      return;
    }
    std::uint32_t close = sm_.getFileOffset(range->getEnd());
    if (needs_semicolon(s)) {
      const auto after = end_after_semicolon(*range);
      if (!after) {
        recurse(ctx, s, no_entry);
        return;
      }
      close = *after;
    }
    PlannedProbe p = make_probe(ctx, *range);
    p.wrap = true;
    p.close_offset = close;
    plans_.add(real_path(sm_.getFileID(range->getBegin())), std::move(p));
    recurse(ctx, s, no_entry);
  }

  // Descends into the statements nested in a control-flow statement.
  void recurse(BodyContext& ctx, const Stmt* s, std::optional<LineColumn>& entry) {
    if (const auto* i = dyn_cast<IfStmt>(s)) {
      plan_branch(ctx, i->getThen());
      plan_branch(ctx, i->getElse());
    } else if (const auto* f = dyn_cast<ForStmt>(s)) {
      plan_branch(ctx, f->getBody());
    } else if (const auto* w = dyn_cast<WhileStmt>(s)) {
      plan_branch(ctx, w->getBody());
    } else if (const auto* d = dyn_cast<DoStmt>(s)) {
      plan_branch(ctx, d->getBody());
    } else if (const auto* r = dyn_cast<CXXForRangeStmt>(s)) {
      plan_branch(ctx, r->getBody());
    } else if (const auto* sw = dyn_cast<SwitchStmt>(s)) {
      plan_branch(ctx, sw->getBody());
    } else if (const auto* t = dyn_cast<CXXTryStmt>(s)) {
      plan_compound(ctx, t->getTryBlock(), entry);
      entry.reset();
      for (unsigned h = 0; h < t->getNumHandlers(); ++h)
        plan_compound(ctx, cast<CompoundStmt>(t->getHandler(h)->getHandlerBlock()), std::nullopt);
    } else if (const auto* a = dyn_cast<AttributedStmt>(s)) {
      recurse(ctx, a->getSubStmt(), entry);
    } else if (const auto* c = dyn_cast<SwitchCase>(s)) {
      plan_branch(ctx, c->getSubStmt());
    } else if (const auto* l = dyn_cast<LabelStmt>(s)) {
      plan_branch(ctx, l->getSubStmt());
    }
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lang_;
  const PlannerConfig& config_;
  PlanSet& plans_;
  std::vector<std::string> names_;
  std::map<unsigned, bool> instrumentable_;
};

class PlannerConsumer : public ASTConsumer {
 public:
  PlannerConsumer(const PlannerConfig& config, PlanSet& plans) : config_(config), plans_(plans) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    Planner planner(ctx, config_, plans_);
    planner.TraverseDecl(ctx.getTranslationUnitDecl());
  }

 private:
  const PlannerConfig& config_;
  PlanSet& plans_;
};

class PlannerAction : public ASTFrontendAction {
 public:
  PlannerAction(const PlannerConfig& config, PlanSet& plans) : config_(config), plans_(plans) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<PlannerConsumer>(config_, plans_);
  }

 private:
  const PlannerConfig& config_;
  PlanSet& plans_;
};

class PlannerFactory : public tooling::FrontendActionFactory {
 public:
  PlannerFactory(const PlannerConfig& config, PlanSet& plans) : config_(config), plans_(plans) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<PlannerAction>(config_, plans_); }

 private:
  const PlannerConfig& config_;
  PlanSet& plans_;
};

}  // namespace

std::unique_ptr<tooling::FrontendActionFactory> make_planner_factory(const PlannerConfig& config, PlanSet& plans) {
  return std::make_unique<PlannerFactory>(config, plans);
}

}  // namespace dlfl::instrument::detail
