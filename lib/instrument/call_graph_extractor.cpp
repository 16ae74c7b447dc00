// Call graph extraction: a RecursiveASTVisitor over each translation unit, run beside the
// probe planner through a MultiplexConsumer so the code is parsed once.
#include "call_graph_extractor.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>

#include <map>
#include <set>
#include <unordered_map>

namespace dlfl::instrument::detail {
namespace {

using namespace clang;

class CallGraphVisitor : public RecursiveASTVisitor<CallGraphVisitor> {
 public:
  CallGraphVisitor(ASTContext& ctx, const std::function<bool(const std::string&)>& instrumentable, CallGraphFacts& facts)
      : sm_(ctx.getSourceManager()), instrumentable_(instrumentable), facts_(facts) {}

  // Instantiations resolve the calls a template's own body leaves dependent.
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl* d) { return in_function(d, [&] { return Base::TraverseFunctionDecl(d); }); }
  bool TraverseCXXMethodDecl(CXXMethodDecl* d) { return in_function(d, [&] { return Base::TraverseCXXMethodDecl(d); }); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl* d) {
    return in_function(d, [&] { return Base::TraverseCXXConstructorDecl(d); });
  }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl* d) {
    return in_function(d, [&] { return Base::TraverseCXXDestructorDecl(d); });
  }
  bool TraverseCXXConversionDecl(CXXConversionDecl* d) {
    return in_function(d, [&] { return Base::TraverseCXXConversionDecl(d); });
  }

  bool TraverseLambdaExpr(LambdaExpr* le) {
    const CXXMethodDecl* op = le->getCallOperator();
    std::string name;
    if (op && op->hasBody() && instrumentable(le->getBeginLoc())) {
      name = lambda_name(le->getLambdaClass());
      const auto [file, line] = where(le->getBeginLoc());
      facts_.graph.add_function(name, file, line);
      if (!callers_.empty() && !callers_.back().empty()) facts_.graph.add_call(callers_.back(), name, graph::CallKind::direct);
    }
    callers_.push_back(name);
    const bool result = Base::TraverseLambdaExpr(le);
    callers_.pop_back();
    return result;
  }

  bool VisitCXXMethodDecl(CXXMethodDecl* m) {
    if (!m->isVirtual() || m->getParent()->isLambda() || !instrumentable(m->getLocation())) return true;
    for (const CXXMethodDecl* base : m->overridden_methods()) facts_.overrides.emplace_back(node_name(m), node_name(base));
    return true;
  }

  bool VisitCallExpr(CallExpr* call) {
    if (callers_.empty() || callers_.back().empty()) return true;
    const std::string& caller = callers_.back();
    const FunctionDecl* callee = call->getDirectCallee();
    if (isa<CUDAKernelCallExpr>(call)) {
      if (callee) add_call(caller, callee, graph::CallKind::launch);
      return true;
    }
    if (!callee) {
      const Expr* e = call->getCallee()->IgnoreParenImpCasts();
      if (const auto* overloads = dyn_cast<UnresolvedLookupExpr>(e)) {
        for (const NamedDecl* d : overloads->decls())
          if (const FunctionDecl* f = d->getAsFunction()) add_call(caller, f, graph::CallKind::direct);
        return true;
      }
      // Dependent calls are resolved in the instantiations; what is left is a call
      // through a pointer to (member) function.
      if (call->isTypeDependent() || call->isValueDependent() ||
          isa<CXXDependentScopeMemberExpr, UnresolvedMemberExpr, DependentScopeDeclRefExpr>(e))
        return true;
      mark_unknown(caller);
      return true;
    }
    if (const auto* m = dyn_cast<CXXMethodDecl>(callee)) {
      if (is_std_function_call(m)) {
        mark_unknown(caller);
        return true;
      }
      if (m->isVirtual() && !qualified_member_call(call)) {
        if (add_call(caller, m, graph::CallKind::virtual_)) facts_.virtual_calls.emplace_back(caller, node_name(m));
        return true;
      }
    }
    add_call(caller, callee, graph::CallKind::direct);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr* construct) {
    if (!callers_.empty() && !callers_.back().empty())
      add_call(callers_.back(), construct->getConstructor(), graph::CallKind::direct);
    return true;
  }

 private:
  using Base = RecursiveASTVisitor<CallGraphVisitor>;

  // The probe planner's name of a function: its template's qualified name; a lambda's
  // call operator `outer::lambda@LINE` with outer the nearest named enclosing function.
  std::string node_name(const FunctionDecl* fd) {
    if (const FunctionDecl* pattern = fd->getTemplateInstantiationPattern()) fd = pattern;
    if (const auto* m = dyn_cast<CXXMethodDecl>(fd); m && m->getParent()->isLambda()) return lambda_name(m->getParent());
    return fd->getQualifiedNameAsString();
  }

  std::string lambda_name(const CXXRecordDecl* lambda) {
    const DeclContext* dc = lambda->getDeclContext();
    std::string outer;
    for (; dc; dc = dc->getParent()) {
      const auto* fd = dyn_cast<FunctionDecl>(dc);
      if (!fd) continue;
      if (const auto* m = dyn_cast<CXXMethodDecl>(fd); m && m->getParent()->isLambda()) continue;
      outer = node_name(fd);
      break;
    }
    const unsigned line = sm_.getExpansionLineNumber(lambda->getLocation());
    return (outer.empty() ? std::string() : outer + "::") + "lambda@" + std::to_string(line);
  }

  template <class Traverse>
  bool in_function(FunctionDecl* fd, Traverse traverse) {
    std::string name;
    if (fd->doesThisDeclarationHaveABody() && !fd->isImplicit() && !fd->isDefaulted() && instrumentable(fd->getLocation())) {
      name = node_name(fd);
      const auto [file, line] = where(fd->getLocation());
      facts_.graph.add_function(name, file, line);
    }
    callers_.push_back(name);
    const bool result = traverse();
    callers_.pop_back();
    return result;
  }

  // A callee declared (or defined) in an instrumentable file; others (the standard
  // library, third-party headers) are not part of the program under test.
  bool add_call(const std::string& caller, const FunctionDecl* callee, graph::CallKind kind) {
    const FunctionDecl* def = callee->getDefinition();
    if (!instrumentable((def ? def : callee)->getLocation()) && !instrumentable(callee->getLocation())) return false;
    if (callee->isImplicit()) return false;
    facts_.graph.add_call(caller, node_name(callee), kind);
    return true;
  }

  void mark_unknown(const std::string& caller) {
    if (const auto v = facts_.graph.find(caller)) facts_.graph.mark_calls_unknown(*v);
  }

  static bool is_std_function_call(const CXXMethodDecl* m) {
    const CXXRecordDecl* record = m->getParent();
    return m->getOverloadedOperator() == OO_Call && record->getName() == "function" && record->isInStdNamespace();
  }

  static bool qualified_member_call(const CallExpr* call) {
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call))
      if (const auto* me = dyn_cast<MemberExpr>(mc->getCallee()->IgnoreParens())) return me->hasQualifier();
    return false;
  }

  std::pair<std::string, std::uint32_t> where(SourceLocation loc) {
    const SourceLocation at = sm_.getExpansionLoc(loc);
    return {real_path(sm_.getFileID(at)), sm_.getExpansionLineNumber(at)};
  }

  std::string real_path(FileID fid) {
    const auto [it, added] = paths_.try_emplace(fid.getHashValue());
    if (!added) return it->second;
    if (const FileEntry* entry = sm_.getFileEntryForID(fid)) {
      if (!entry->tryGetRealPathName().empty()) {
        it->second = entry->tryGetRealPathName().str();
      } else {
        llvm::SmallString<256> real;
        if (!llvm::sys::fs::real_path(entry->getName(), real)) it->second = std::string(real.str());
      }
    }
    return it->second;
  }

  bool instrumentable(SourceLocation loc) {
    if (loc.isInvalid()) return false;
    const FileID fid = sm_.getFileID(sm_.getExpansionLoc(loc));
    const auto [it, added] = accepted_.try_emplace(fid.getHashValue(), false);
    if (added) it->second = instrumentable_(real_path(fid));
    return it->second;
  }

  SourceManager& sm_;
  const std::function<bool(const std::string&)>& instrumentable_;
  CallGraphFacts& facts_;
  std::vector<std::string> callers_;  // "" = inside a function that is not a node
  std::unordered_map<unsigned, std::string> paths_;
  std::unordered_map<unsigned, bool> accepted_;
};

class CallGraphConsumer : public ASTConsumer {
 public:
  CallGraphConsumer(const std::function<bool(const std::string&)>& instrumentable, CallGraphFacts& facts)
      : instrumentable_(instrumentable), facts_(facts) {}
  void HandleTranslationUnit(ASTContext& ctx) override {
    CallGraphVisitor(ctx, instrumentable_, facts_).TraverseDecl(ctx.getTranslationUnitDecl());
  }

 private:
  const std::function<bool(const std::string&)>& instrumentable_;
  CallGraphFacts& facts_;
};

// The wrapped action's consumer and the call graph walk over one parse.
class CallGraphAction : public WrapperFrontendAction {
 public:
  CallGraphAction(std::unique_ptr<FrontendAction> inner, const std::function<bool(const std::string&)>& instrumentable,
                  CallGraphFacts& facts)
      : WrapperFrontendAction(std::move(inner)), instrumentable_(instrumentable), facts_(facts) {}

 protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef file) override {
    std::vector<std::unique_ptr<ASTConsumer>> consumers;
    if (auto inner = WrapperFrontendAction::CreateASTConsumer(ci, file)) consumers.push_back(std::move(inner));
    consumers.push_back(std::make_unique<CallGraphConsumer>(instrumentable_, facts_));
    return std::make_unique<MultiplexConsumer>(std::move(consumers));
  }

 private:
  const std::function<bool(const std::string&)>& instrumentable_;
  CallGraphFacts& facts_;
};

class SyntaxOnlyCallGraphAction : public ASTFrontendAction {
 public:
  SyntaxOnlyCallGraphAction(const std::function<bool(const std::string&)>& instrumentable, CallGraphFacts& facts)
      : instrumentable_(instrumentable), facts_(facts) {}

 protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, StringRef) override {
    return std::make_unique<CallGraphConsumer>(instrumentable_, facts_);
  }

 private:
  const std::function<bool(const std::string&)>& instrumentable_;
  CallGraphFacts& facts_;
};

class CallGraphFactory : public tooling::FrontendActionFactory {
 public:
  CallGraphFactory(std::unique_ptr<tooling::FrontendActionFactory> inner, std::function<bool(const std::string&)> instrumentable,
                   CallGraphFacts& facts)
      : inner_(std::move(inner)), instrumentable_(std::move(instrumentable)), facts_(facts) {}
  std::unique_ptr<FrontendAction> create() override {
    if (!inner_) return std::make_unique<SyntaxOnlyCallGraphAction>(instrumentable_, facts_);
    return std::make_unique<CallGraphAction>(inner_->create(), instrumentable_, facts_);
  }

 private:
  std::unique_ptr<tooling::FrontendActionFactory> inner_;
  std::function<bool(const std::string&)> instrumentable_;
  CallGraphFacts& facts_;
};

}  // namespace

void CallGraphFacts::merge(CallGraphFacts&& other) {
  graph.merge(other.graph);
  virtual_calls.insert(virtual_calls.end(), other.virtual_calls.begin(), other.virtual_calls.end());
  overrides.insert(overrides.end(), other.overrides.begin(), other.overrides.end());
}

graph::CallGraph CallGraphFacts::resolve() const {
  graph::CallGraph resolved = graph;
  std::map<std::string, std::set<std::string>> overriders;  // method -> its direct overriders
  for (const auto& [overrider, base] : overrides) overriders[base].insert(overrider);
  for (const auto& [caller, method] : virtual_calls) {
    std::set<std::string> seen{method};
    std::vector<std::string> todo{method};
    while (!todo.empty()) {
      const std::string m = todo.back();
      todo.pop_back();
      const auto it = overriders.find(m);
      if (it == overriders.end()) continue;
      for (const auto& o : it->second) {
        if (!seen.insert(o).second) continue;
        todo.push_back(o);
        // Only overrides the program defines are nodes; a declared-only one is not called.
        if (resolved.find(o)) resolved.add_call(caller, o, graph::CallKind::virtual_);
      }
    }
  }
  return resolved;
}

std::unique_ptr<tooling::FrontendActionFactory> with_call_graph(std::unique_ptr<tooling::FrontendActionFactory> inner,
                                                                 std::function<bool(const std::string&)> instrumentable,
                                                                 CallGraphFacts& facts) {
  return std::make_unique<CallGraphFactory>(std::move(inner), std::move(instrumentable), facts);
}

}  // namespace dlfl::instrument::detail
