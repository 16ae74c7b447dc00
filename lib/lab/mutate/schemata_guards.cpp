// find_guards(): one AST walk per unit that keeps, for every edit, the smallest
// expression or statement around it that a switch can choose.
#include "schemata_guards.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>

#include "clang_units.h"
#include "cuda_args.h"

namespace dlfl::mutate::detail {
namespace {

using namespace clang;

struct GuardState {
  const std::vector<EditSite>& edits;
  std::map<std::string, std::vector<std::size_t>> by_path;  // edit indices per real path
  std::vector<std::optional<Guard>> guards;
  std::vector<std::string> failed;
};

// Whether `s` stands where any statement may: in a block or as the body of a
// control statement, a case or a label (not its condition).
bool in_statement_position(const Stmt* s, ASTContext& context) {
  if (isa<DeclStmt, NullStmt, SwitchCase, LabelStmt>(s)) return false;
  const auto parents = context.getParents(*s);
  if (parents.size() != 1) return false;
  const Stmt* p = parents[0].get<Stmt>();
  if (!p) return false;
  if (isa<CompoundStmt>(p)) return true;
  if (const auto* i = dyn_cast<IfStmt>(p)) return s == i->getThen() || s == i->getElse();
  if (const auto* f = dyn_cast<ForStmt>(p)) return s == f->getBody();
  if (const auto* w = dyn_cast<WhileStmt>(p)) return s == w->getBody();
  if (const auto* d = dyn_cast<DoStmt>(p)) return s == d->getBody();
  if (const auto* r = dyn_cast<CXXForRangeStmt>(p)) return s == r->getBody();
  if (const auto* c = dyn_cast<SwitchCase>(p)) return s == c->getSubStmt();
  if (const auto* l = dyn_cast<LabelStmt>(p)) return s == l->getSubStmt();
  return false;
}

// Expressions a `?:` can never stand for: braced lists and the like.
bool guardable_expression(const Stmt* s) {
  return isa<Expr>(s) && !isa<InitListExpr, DesignatedInitExpr, ParenListExpr, LambdaExpr, StmtExpr,
                              CXXDefaultArgExpr, CXXDefaultInitExpr>(s);
}

bool blank(StringRef text) { return text.find_first_not_of(" \t\r\n") == StringRef::npos; }

class GuardWalker : public RecursiveASTVisitor<GuardWalker> {
 public:
  GuardWalker(ASTContext& context, GuardState& state)
      : context_(context), sm_(context.getSourceManager()), state_(state),
        c_language_(!context.getLangOpts().CPlusPlus) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitStmt(Stmt* s) {
    const auto range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(s->getSourceRange()), sm_,
                                                context_.getLangOpts());
    if (range.isInvalid()) return true;
    const auto [file, begin] = sm_.getDecomposedLoc(range.getBegin());
    const auto [end_file, end] = sm_.getDecomposedLoc(range.getEnd());
    if (file != end_file || end < begin) return true;
    const std::vector<std::size_t>* edits = edits_of(file);
    if (!edits) return true;
    // C's `?:` is never an lvalue: `(switch ? a : b) = v` does not compile there.
    const bool expression = guardable_expression(s) && !(c_language_ && cast<Expr>(s)->isGLValue());
    const bool statement = in_statement_position(s, context_);
    if (!expression && !statement) return true;
    const StringRef buffer = sm_.getBufferData(file);
    std::uint64_t stmt_end = end;
    if (statement) {
      // The statement's own `;` (the token range stops before it).
      std::uint64_t k = end;
      while (k < buffer.size() && (buffer[k] == ' ' || buffer[k] == '\t')) ++k;
      if (k < buffer.size() && buffer[k] == ';') stmt_end = k + 1;
    }
    for (const std::size_t i : *edits) {
      const EditSite& e = state_.edits[i];
      const std::uint64_t e_end = e.offset + e.size;
      std::optional<Guard> candidate;
      if (expression && begin <= e.offset && e_end <= end) {
        candidate = Guard{begin, end, false, c_language_};
      } else if (statement && begin <= e.offset && e_end <= stmt_end) {
        candidate = Guard{begin, stmt_end, true, c_language_};
      } else if (statement && e.offset <= begin && stmt_end <= e_end && e_end <= buffer.size() &&
                 blank(buffer.substr(e.offset, begin - e.offset)) && blank(buffer.substr(stmt_end, e_end - stmt_end))) {
        candidate = Guard{e.offset, e_end, true, c_language_};  // a deleted line: the statement and its blanks
      }
      if (!candidate) continue;
      auto& best = state_.guards[i];
      const auto size = [](const Guard& g) { return g.end - g.begin; };
      if (!best || size(*candidate) < size(*best) ||
          (size(*candidate) == size(*best) && best->statement && !candidate->statement)) {
        const bool c_language = best && best->c_language;
        best = candidate;
        best->c_language = best->c_language || c_language;
      } else if (c_language_) {
        best->c_language = true;  // a header that C and C++ units include
      }
    }
    return true;
  }

 private:
  const std::vector<std::size_t>* edits_of(FileID file) {
    auto it = files_.find(file);
    if (it == files_.end()) {
      const std::vector<std::size_t>* found = nullptr;
      if (const auto entry = sm_.getFileEntryRefForID(file)) {
        const auto p = state_.by_path.find(real_file_path(*entry));
        if (p != state_.by_path.end()) found = &p->second;
      }
      it = files_.emplace(file, found).first;
    }
    return it->second;
  }

  ASTContext& context_;
  const SourceManager& sm_;
  GuardState& state_;
  const bool c_language_;
  std::map<FileID, const std::vector<std::size_t>*> files_;
};

class GuardConsumer : public ASTConsumer {
 public:
  GuardConsumer(CompilerInstance& ci, std::string file, GuardState& state)
      : ci_(ci), file_(std::move(file)), state_(state) {}
  void HandleTranslationUnit(ASTContext& context) override {
    if (ci_.getDiagnostics().hasErrorOccurred()) {
      state_.failed.push_back(file_);
      return;
    }
    GuardWalker(context, state_).TraverseDecl(context.getTranslationUnitDecl());
  }

 private:
  CompilerInstance& ci_;
  std::string file_;
  GuardState& state_;
};

class GuardAction : public ASTFrontendAction {
 public:
  explicit GuardAction(GuardState& state) : state_(state) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef file) override {
    return std::make_unique<GuardConsumer>(ci, file.str(), state_);
  }

 private:
  GuardState& state_;
};

class GuardActionFactory : public tooling::FrontendActionFactory {
 public:
  explicit GuardActionFactory(GuardState& state) : state_(state) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<GuardAction>(state_); }

 private:
  GuardState& state_;
};

}  // namespace

std::vector<std::optional<Guard>> find_guards(const tooling::CompilationDatabase& db,
                                              const std::vector<std::string>& units,
                                              const std::vector<EditSite>& edits,
                                              const std::vector<std::string>& extra_args,
                                              std::vector<std::string>& failed) {
  GuardState state{edits, {}, std::vector<std::optional<Guard>>(edits.size()), {}};
  for (std::size_t i = 0; i < edits.size(); ++i) state.by_path[edits[i].path].push_back(i);
  // Errors are collected, not printed: no "N errors generated" lines either.
  std::vector<std::string> quiet_args = extra_args;
  quiet_args.push_back("-fno-caret-diagnostics");
  tooling::ClangTool tool(db, units);
  const instrument::detail::CudaStubDirectory stubs;
  adjust_compile_commands(tool, quiet_args, stubs.path());
  tool.setPrintErrorMessage(false);
  // Clang's messages were shown by the mutant search already: the units parse the same.
  IgnoringDiagConsumer quiet;
  tool.setDiagnosticConsumer(&quiet);
  GuardActionFactory factory(state);
  tool.run(&factory);
  failed = std::move(state.failed);
  return std::move(state.guards);
}

}  // namespace dlfl::mutate::detail
