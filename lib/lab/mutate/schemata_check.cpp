// compile_errors(): a syntax-only ClangTool run over in-memory files, its errors collected.
#include "schemata_check.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/FrontendActions.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include "clang_units.h"
#include "cuda_args.h"

namespace dlfl::mutate::detail {
namespace {

using namespace clang;

class ErrorCollector : public DiagnosticConsumer {
 public:
  explicit ErrorCollector(std::vector<CompileError>& out) : out_(out) {}
  void set_unit(std::string unit) { unit_ = std::move(unit); }

  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    CompileError e;
    e.unit = unit_;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    e.message = text.str().str();
    const llvm::StringRef group = DiagnosticIDs::getWarningOptionForDiag(info.getID());
    e.mismatch = group == "conditional-type-mismatch" || group == "pointer-type-mismatch";
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      const SourceLocation loc = sm.getFileLoc(info.getLocation());
      const auto [file, offset] = sm.getDecomposedLoc(loc);
      if (const auto entry = sm.getFileEntryRefForID(file)) {
        llvm::SmallString<256> abs(entry->getName());
        llvm::sys::fs::make_absolute(abs);
        llvm::sys::path::remove_dots(abs, true);
        e.path = abs.str().str();
        e.offset = offset;
      }
    }
    out_.push_back(std::move(e));
  }

 private:
  std::vector<CompileError>& out_;
  std::string unit_;
};

}  // namespace

std::vector<CompileError> compile_errors(const tooling::CompilationDatabase& db, const std::vector<std::string>& units,
                                         const std::map<std::string, std::string>& overlays,
                                         const std::vector<std::string>& extra_args) {
  // Errors are collected, not printed: no "N errors generated" lines either.
  std::vector<std::string> quiet_args = extra_args;
  quiet_args.push_back("-fno-caret-diagnostics");
  std::vector<CompileError> errors;
  ErrorCollector collector(errors);
  const instrument::detail::CudaStubDirectory stubs;
  // One tool per unit, so each error knows its unit.
  for (const std::string& unit : units) {
    tooling::ClangTool tool(db, {unit});
    adjust_compile_commands(tool, quiet_args, stubs.path());
    tool.setPrintErrorMessage(false);
    for (const auto& [path, text] : overlays) tool.mapVirtualFile(path, text);
    collector.set_unit(unit);
    tool.setDiagnosticConsumer(&collector);
    const std::size_t before = errors.size();
    const int status = tool.run(tooling::newFrontendActionFactory<SyntaxOnlyAction>().get());
    if (status != 0 && errors.size() == before) errors.push_back({unit, {}, 0, "clang could not run on this unit"});
  }
  return errors;
}

}  // namespace dlfl::mutate::detail
