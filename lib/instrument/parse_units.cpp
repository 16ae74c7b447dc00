// parse_units(): one ClangTool per translation unit, each with its own file system view
// (a tool changes its working directory per compile command, and the real file system's
// working directory is the process's: shared between threads it would race) and its own
// diagnostics buffer (parallel units would interleave their messages on stderr).
#include "parse_units.h"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "probe_planner.h"

namespace dlfl::instrument::detail {
namespace {

// Clang's messages for one unit, as text, noting the #includes that were not found.
class UnitDiagnostics : public clang::TextDiagnosticPrinter {
 public:
  UnitDiagnostics(llvm::raw_ostream& out, clang::DiagnosticOptions* options)
      : clang::TextDiagnosticPrinter(out, options) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    const unsigned id = info.getID();
    if (id == clang::diag::err_pp_file_not_found || id == clang::diag::err_pp_file_not_found_angled_include_not_fatal ||
        id == clang::diag::err_pp_file_not_found_typo_not_fatal) {
      MissingInclude m;
      m.header = info.getArgStdStr(0);
      if (info.hasSourceManager() && info.getLocation().isValid()) {
        const clang::PresumedLoc where = info.getSourceManager().getPresumedLoc(info.getLocation());
        if (where.isValid()) m.included_from = std::string(where.getFilename()) + ":" + std::to_string(where.getLine());
      }
      missing.push_back(std::move(m));
    }
    if (level >= clang::DiagnosticsEngine::Error) {
      const llvm::StringRef group = clang::DiagnosticIDs::getWarningOptionForDiag(id);
      if (!group.empty()) error_warning_groups.push_back(group.str());
    }
    clang::TextDiagnosticPrinter::HandleDiagnostic(level, info);
  }

  std::vector<MissingInclude> missing;
  std::vector<std::string> error_warning_groups;
};

// FrontendActionFactory::runInvocation, but with the compiler's verbose stream (where
// clang writes "N errors generated.") sent to the unit's buffer instead of stderr.
class BufferedInvocation : public clang::tooling::ToolAction {
 public:
  BufferedInvocation(clang::tooling::FrontendActionFactory& factory, llvm::raw_ostream& verbose)
      : factory_(factory), verbose_(verbose) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer* diagnostics) override {
    clang::CompilerInstance compiler(std::move(pch));
    compiler.setInvocation(std::move(invocation));
    compiler.setFileManager(files);
    // Declared after the compiler: the action may refer to it until it is destroyed.
    const std::unique_ptr<clang::FrontendAction> action = factory_.create();
    compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
    if (!compiler.hasDiagnostics()) return false;
    compiler.setVerboseOutputStream(verbose_);
    compiler.createSourceManager(*files);
    const bool ok = compiler.ExecuteAction(*action);
    files->clearStatCache();
    return ok;
  }

 private:
  clang::tooling::FrontendActionFactory& factory_;
  llvm::raw_ostream& verbose_;
};

}  // namespace

ParsedUnits parse_units(const clang::tooling::CompilationDatabase& db, const std::vector<std::string>& sources,
                        const PlannerConfig& config, const clang::tooling::ArgumentsAdjuster& adjust, unsigned jobs,
                        const std::function<void(std::string_view)>& log) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, sources.size())));

  std::vector<PlanSet> plans(jobs);
  std::vector<CallGraphFacts> calls(jobs);
  std::vector<std::optional<FailedUnit>> failures(sources.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex log_mutex;
  std::exception_ptr error;
  std::size_t done = 0;

  auto work = [&](unsigned worker) {
    try {
      const auto factory = with_call_graph(make_planner_factory(config, plans[worker]), config.instrumentable, calls[worker]);
      for (std::size_t i = next++; i < sources.size() && !stop; i = next++) {
        std::string messages;
        llvm::raw_string_ostream out(messages);
        UnitDiagnostics diagnostics(out, new clang::DiagnosticOptions);
        clang::tooling::ClangTool tool(db, {sources[i]}, std::make_shared<clang::PCHContainerOperations>(),
                                       llvm::vfs::createPhysicalFileSystem());
        tool.appendArgumentsAdjuster(adjust);
        tool.setDiagnosticConsumer(&diagnostics);
        tool.setPrintErrorMessage(false);
        BufferedInvocation invocation(*factory, out);
        const int status = tool.run(&invocation);
        out.flush();
        if (status != 0 || diagnostics.getNumErrors() > 0) {
          if (messages.empty()) messages = "clang could not process " + sources[i] + "\n";
          failures[i] = FailedUnit{sources[i], std::move(messages), std::move(diagnostics.missing),
                                   std::move(diagnostics.error_warning_groups)};
        }
        if (log) {
          const std::lock_guard<std::mutex> lock(log_mutex);
          ++done;
          // A line per tenth, not per unit: large trees have thousands.
          if (sources.size() >= 20 && done % (sources.size() / 10) == 0 && done < sources.size())
            log("parsed " + std::to_string(done) + " of " + std::to_string(sources.size()) + " translation units");
        }
      }
    } catch (...) {
      const std::lock_guard<std::mutex> lock(log_mutex);
      if (!error) error = std::current_exception();
      stop = true;
    }
  };
  if (jobs == 1) {
    work(0);
  } else {
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < jobs; ++w) threads.emplace_back(work, w);
    for (auto& t : threads) t.join();
  }
  if (error) std::rethrow_exception(error);

  ParsedUnits result;
  for (auto& p : plans) result.plans.merge(std::move(p));
  for (auto& c : calls) result.calls.merge(std::move(c));
  for (auto& f : failures)
    if (f) result.failed.push_back(std::move(*f));
  return result;
}

}  // namespace dlfl::instrument::detail
