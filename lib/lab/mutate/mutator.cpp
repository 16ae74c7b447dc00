// find_mutants(): the compilation database, the file selection, the AST walk that hands
// every statement of every selected function body to the operator families, and the
// merge of all translation units' mutants into one named, de-duplicated list.
#include "dlfl/lab/mutate/mutator.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include "clang_units.h"
#include "cuda_args.h"  // the CUDA stub headers .cu files parse against
#include "dlfl/error.h"
#include "dlfl/lab/mutate/glob.h"
#include "names.h"
#include "source_paths.h"
#include "operator_families.h"

namespace dlfl::mutate {
namespace {

namespace fs = std::filesystem;
using detail::canonical_or_absolute;
using detail::is_under;
using namespace clang;
using detail::FunctionContext;
using detail::RawMutant;
using detail::Sites;

// Every variable name declared in a body (locals of lambdas included).
void collect_variables(const Stmt* s, std::set<std::string>& names) {
  if (!s) return;
  if (const auto* d = dyn_cast<DeclStmt>(s))
    for (const Decl* decl : d->decls())
      if (const auto* v = dyn_cast<VarDecl>(decl)) names.insert(v->getNameAsString());
  for (const Stmt* child : s->children()) collect_variables(child, names);
}

// Every local variable of a body with the statement that bounds its scope.
void collect_locals(const Stmt* s, const Stmt* scope, std::vector<detail::ScopedVariable>& out) {
  if (!s) return;
  if (const auto* d = dyn_cast<DeclStmt>(s))
    for (const Decl* decl : d->decls())
      if (const auto* v = dyn_cast<VarDecl>(decl)) out.push_back({v, scope});
  const Stmt* inner = isa<CompoundStmt, ForStmt, CXXForRangeStmt, IfStmt, WhileStmt, SwitchStmt>(s) ? s : scope;
  for (const Stmt* child : s->children()) collect_locals(child, inner, out);
}

class Walker : public RecursiveASTVisitor<Walker> {
 public:
  explicit Walker(Sites& sites) : sites_(sites) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl* d) {
    if (!d) return true;
    // Whole declarations written in unselected files (system headers, other projects'
    // headers) are skipped: nothing in them can be mutated, and skipping is fast.
    if (d->getLocation().isValid() && !isa<TranslationUnitDecl>(d) && !sites_.file_selected(d->getLocation()))
      return true;
    auto* fd = dyn_cast<FunctionDecl>(d);
    if (!fd || !fd->doesThisDeclarationHaveABody() || fd->isImplicit() || fd->isDefaulted() ||
        fd->isTemplateInstantiation())
      return Base::TraverseDecl(d);
    if (fd->isConsteval()) return true;  // every value of it feeds a constant expression
    FunctionContext context;
    context.decl = fd;
    context.qualified_name = fd->getQualifiedNameAsString();
    context.name = fd->getNameAsString();
    context.gpu = fd->hasAttr<CUDAGlobalAttr>() || (fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>());
    context.gradient = detail::is_gradient_function_name(context.name);
    context.broadcast = detail::is_broadcast_function_name(context.name);
    for (const ParmVarDecl* p : fd->parameters()) context.variables.insert(p->getNameAsString());
    collect_variables(fd->getBody(), context.variables);
    collect_locals(fd->getBody(), fd->getBody(), context.locals);
    const FunctionContext* outer = current_;
    current_ = &context;
    sites_.set_function(current_);
    const bool ok = Base::TraverseDecl(d);
    current_ = outer;
    sites_.set_function(current_);
    return ok;
  }

  // Expressions that must stay constant or are never evaluated: types (array bounds,
  // decltype), template arguments, static_assert, sizeof/alignof, noexcept, typeid,
  // case labels and other ConstantExprs, `if constexpr` conditions.
  bool TraverseTypeLoc(TypeLoc tl) {
    return suppressed([&] { return Base::TraverseTypeLoc(tl); });
  }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc& a) {
    return suppressed([&] { return Base::TraverseTemplateArgumentLoc(a); });
  }
  bool TraverseStaticAssertDecl(StaticAssertDecl* d) {
    return suppressed([&] { return Base::TraverseStaticAssertDecl(d); });
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr* e, DataRecursionQueue* = nullptr) {
    return suppressed([&] { return Base::TraverseUnaryExprOrTypeTraitExpr(e); });
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr* e, DataRecursionQueue* = nullptr) {
    return suppressed([&] { return Base::TraverseCXXNoexceptExpr(e); });
  }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr* e, DataRecursionQueue* = nullptr) {
    return suppressed([&] { return Base::TraverseCXXTypeidExpr(e); });
  }
  bool TraverseConstantExpr(ConstantExpr* e, DataRecursionQueue* = nullptr) {
    return suppressed([&] { return Base::TraverseConstantExpr(e); });
  }
  bool TraverseIfStmt(IfStmt* s, DataRecursionQueue* = nullptr) {
    if (!s->isConstexpr()) return Base::TraverseIfStmt(s);
    WalkUpFromIfStmt(s);
    TraverseStmt(s->getInit());
    suppressed([&] { return TraverseStmt(s->getCond()); });
    TraverseStmt(s->getThen());
    TraverseStmt(s->getElse());
    return true;
  }

  bool VisitStmt(Stmt* s) {
    if (!current_ || suppressed_ > 0) return true;
    detail::gpu_operators(*s, sites_);
    detail::training_operators(*s, sites_);
    detail::tensor_operators(*s, sites_);
    detail::paired_name_operators(*s, sites_);
    detail::traditional_operators(*s, sites_);
    return true;
  }

  bool VisitVarDecl(VarDecl* d) {
    if (current_ && suppressed_ == 0 && !isa<ParmVarDecl>(d)) detail::tensor_declaration_operators(*d, sites_);
    return true;
  }

 private:
  using Base = RecursiveASTVisitor<Walker>;
  template <typename F>
  bool suppressed(F&& traverse) {
    ++suppressed_;
    const bool ok = traverse();
    --suppressed_;
    return ok;
  }

  Sites& sites_;
  const FunctionContext* current_ = nullptr;
  int suppressed_ = 0;
};

struct RunState {
  std::array<bool, kOperatorCount> enabled{};
  detail::FileFilter filter;
  bool allow_errors = false;
  std::vector<RawMutant> mutants;
  std::vector<std::string> failed_units;
};

class MutateConsumer : public ASTConsumer {
 public:
  MutateConsumer(CompilerInstance& ci, std::string file, RunState& state)
      : ci_(ci), file_(std::move(file)), state_(state) {}
  void HandleTranslationUnit(ASTContext& context) override {
    if (ci_.getDiagnostics().hasErrorOccurred()) {
      state_.failed_units.push_back(file_);
      if (!state_.allow_errors) return;
    }
    Sites sites(context, state_.enabled, state_.filter, state_.mutants);
    Walker(sites).TraverseDecl(context.getTranslationUnitDecl());
  }

 private:
  CompilerInstance& ci_;
  std::string file_;
  RunState& state_;
};

class MutateAction : public ASTFrontendAction {
 public:
  explicit MutateAction(RunState& state) : state_(state) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef file) override {
    return std::make_unique<MutateConsumer>(ci, file.str(), state_);
  }

 private:
  RunState& state_;
};

class MutateActionFactory : public tooling::FrontendActionFactory {
 public:
  explicit MutateActionFactory(RunState& state) : state_(state) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<MutateAction>(state_); }

 private:
  RunState& state_;
};

bool matches_any(const std::vector<std::string>& globs, const fs::path& path, const fs::path& root) {
  const std::string rel = path.lexically_relative(root).generic_string();
  const std::string abs = path.generic_string();
  return std::any_of(globs.begin(), globs.end(),
                     [&](const std::string& g) { return glob_match(g, g.starts_with('/') ? abs : rel); });
}

// Whether the selection names a file under root that is not a translation unit (a
// header): then every unit under root is parsed, as any may include it.
bool selects_other_files(const MutateOptions& o, const fs::path& root, const std::set<fs::path>& units,
                         const std::function<bool(const fs::path&)>& selected) {
  if (o.files.empty()) return true;
  std::error_code ec;
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    if (it->is_directory()) {
      if (p.filename().string().starts_with(".") || fs::exists(p / "CMakeCache.txt")) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && !units.count(p) && selected(p)) return true;
  }
  return false;
}

std::string sanitize(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return out;
}

// Mutants with the same effect (the same file text after the edit) are one: their edits
// agree once the common prefix and suffix of original and replacement are trimmed.
std::tuple<std::string, std::uint64_t, std::string, std::string> effect_key(const RawMutant& m) {
  std::string_view a = m.original, b = m.replacement;
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  a.remove_prefix(prefix);
  b.remove_prefix(prefix);
  while (!a.empty() && !b.empty() && a.back() == b.back()) {
    a.remove_suffix(1);
    b.remove_suffix(1);
  }
  return {m.path, m.offset + prefix, std::string(a), std::string(b)};
}

std::vector<Mutant> name_mutants(const std::vector<RawMutant>& raw, const fs::path& root) {
  std::map<std::tuple<std::string, std::uint64_t, std::string, std::string>, const RawMutant*> unique;
  for (const auto& m : raw) {
    auto [it, inserted] = unique.emplace(effect_key(m), &m);
    if (!inserted && m.op < it->second->op) it->second = &m;
  }
  std::vector<Mutant> out;
  for (const auto& [key, m] : unique) {
    Mutant x;
    x.file = fs::path(m->path).lexically_relative(root).generic_string();
    x.line = m->line;
    x.end_line = m->end_line;
    x.column = m->column;
    x.offset = m->offset;
    x.original = m->original;
    x.replacement = m->replacement;
    const auto& info = operator_info(m->op);
    x.op = std::string(info.name);
    x.bug_type = info.bug_type;
    x.function = m->function;
    out.push_back(std::move(x));
  }
  std::sort(out.begin(), out.end(), [](const Mutant& a, const Mutant& b) {
    const auto rank = [](const Mutant& m) {
      const auto c = operator_catalog();
      return std::find_if(c.begin(), c.end(), [&](const auto& i) { return i.name == m.op; }) - c.begin();
    };
    return std::forward_as_tuple(a.file, a.offset, a.original.size(), rank(a), a.replacement) <
           std::forward_as_tuple(b.file, b.offset, b.original.size(), rank(b), b.replacement);
  });
  std::map<std::string, unsigned> counts;
  for (auto& m : out) {
    const std::string base = sanitize(m.file) + "-L" + std::to_string(m.line) + "-" + m.op;
    m.id = base + "-" + std::to_string(++counts[base]);
  }
  return out;
}

}  // namespace

std::vector<Mutant> find_mutants(const MutateOptions& o) {
  auto log = [&](const std::string& line) {
    if (o.log) o.log(line);
  };
  std::string message;
  auto db = tooling::CompilationDatabase::loadFromDirectory(o.build_dir.string(), message);
  if (!db) throw Error((o.build_dir / "compile_commands.json").string(), 0, message);
  const fs::path root = canonical_or_absolute(o.root.empty() ? fs::current_path() : o.root);
  const fs::path build_dir = canonical_or_absolute(o.build_dir);
  const bool build_in_root = is_under(build_dir, root);

  const auto selected = [&](const fs::path& p) {
    if (!is_under(p, root) || (build_in_root && is_under(p, build_dir))) return false;
    if (!o.files.empty() && !matches_any(o.files, p, root)) return false;
    return !matches_any(o.exclude, p, root);
  };
  std::set<fs::path> in_root;               // units under root, by canonical path
  std::map<fs::path, std::string> spelled;  // canonical → as the database spells it
  for (const auto& f : db->getAllFiles()) {
    const fs::path p = canonical_or_absolute(f);
    if (is_under(p, root) && !(build_in_root && is_under(p, build_dir)) && !matches_any(o.exclude, p, root)) {
      in_root.insert(p);
      spelled.emplace(p, f);
    }
  }
  std::vector<std::string> units;
  const bool all_units = selects_other_files(o, root, in_root, selected);
  for (const auto& p : in_root)
    if (all_units || selected(p)) units.push_back(spelled.at(p));
  if (units.empty())
    throw Error(o.build_dir.string(), 0, "no translation unit under " + root.string() + " matches the selection");

  RunState state;
  for (Operator op : o.operators.empty() ? select_operators({}) : o.operators)
    state.enabled[static_cast<std::size_t>(op)] = true;
  state.allow_errors = o.allow_errors;
  state.filter = [&](const std::string& real) { return selected(fs::path(real)); };

  tooling::ClangTool tool(*db, units);
  namespace cuda = instrument::detail;
  const cuda::CudaStubDirectory stubs;  // the CUDA declarations .cu files parse against
  detail::adjust_compile_commands(tool, o.extra_args, stubs.path());

  log("parsing " + std::to_string(units.size()) + " translation units under " + root.string());
  MutateActionFactory factory(state);
  const int status = tool.run(&factory);
  if (!state.failed_units.empty() && !o.allow_errors) {
    std::string list;
    for (const auto& f : state.failed_units) list += "\n  " + f;
    throw Error("clang reported errors in " + std::to_string(state.failed_units.size()) +
                " translation unit(s) (see above; --allow-errors mutates them anyway):" + list);
  }
  if (status != 0 && state.failed_units.empty() && !o.allow_errors)
    throw Error("clang could not process every translation unit (see the messages above)");
  auto mutants = name_mutants(state.mutants, root);
  log("found " + std::to_string(mutants.size()) + " mutants");
  return mutants;
}

}  // namespace dlfl::mutate
