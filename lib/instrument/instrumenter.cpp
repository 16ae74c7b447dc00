// instrument(): compilation database → selected translation units → Clang parse with the
// probe planner → rewritten tree + probe map.
#include "dlfl/instrument/instrumenter.h"

#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <thread>

#include "cuda_args.h"
#include "dlfl/error.h"
#include "dlfl/graph/call_graph_format.h"
#include "parse_units.h"
#include "rewrite.h"
#include "source_tree_copy.h"

namespace dlfl::instrument {
namespace {

namespace fs = std::filesystem;

fs::path canonical_or_absolute(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).lexically_normal() : c;
}

// Strictly below `dir` (a path is not under itself).
bool is_under(const fs::path& path, const fs::path& dir) {
  if (dir.empty()) return false;
  const auto rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && rel != ".";
}

fs::path common_directory(const std::vector<fs::path>& files) {
  fs::path common = files.front().parent_path();
  for (const auto& f : files)
    while (!common.empty() && !is_under(f, common) && common != common.root_path()) common = common.parent_path();
  return common;
}

// The translation units to instrument, as the database spells them.
std::vector<std::string> select_sources(const clang::tooling::CompilationDatabase& db, const InstrumentOptions& o,
                                        const fs::path& root) {
  std::vector<std::string> all = db.getAllFiles();
  std::vector<std::string> chosen;
  if (o.sources.empty()) {
    for (const auto& f : all)
      if (root.empty() || is_under(canonical_or_absolute(f), root)) chosen.push_back(f);
  } else {
    for (const auto& wanted : o.sources) {
      const fs::path wanted_path = canonical_or_absolute(wanted);
      std::size_t matches = 0;
      for (const auto& f : all) {
        const fs::path p = canonical_or_absolute(f);
        const std::string g = p.generic_string();
        const bool suffix = g.size() > wanted.size() && g.compare(g.size() - wanted.size(), wanted.size(), wanted) == 0 &&
                            g[g.size() - wanted.size() - 1] == '/';
        if (p == wanted_path || suffix) {
          chosen.push_back(f);
          ++matches;
        }
      }
      if (!matches) throw Error(wanted, 0, "is not in the compilation database of " + o.build_dir.string());
    }
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  if (chosen.empty()) throw Error(o.build_dir.string(), 0, "no translation unit to instrument");
  return chosen;
}

// Whether `path` matches an --exclude text, looked for in the path relative to the root
// (so `tests/` does not exclude everything under /home/me/tests/project).
bool excluded(const fs::path& path, const fs::path& root, const std::vector<std::string>& patterns) {
  const std::string rel = path.lexically_relative(root).generic_string();
  return std::any_of(patterns.begin(), patterns.end(), [&](const auto& x) { return rel.find(x) != std::string::npos; });
}

// Clang errors stop the run (unless --allow-errors): a unit parsed with errors may miss
// statements. #includes that are not found come first, in one line: on a tree that was
// never built they are its generated headers (protobuf's *.pb.h, configured headers), and
// every unit that includes one fails the same way.
[[noreturn]] void report_failures(const std::vector<detail::FailedUnit>& failed, std::size_t units,
                                  const fs::path& build_dir) {
  std::size_t missing = 0;
  const detail::MissingInclude* first = nullptr;
  for (const auto& f : failed) {
    if (f.missing.empty()) continue;
    ++missing;
    if (!first) first = &f.missing.front();
  }
  if (first)
    throw Error(build_dir.string(), 0,
                std::to_string(missing) + " of " + std::to_string(units) +
                    " translation units include headers that do not exist, e.g. '" + first->header + "'" +
                    (first->included_from.empty() ? "" : " (" + first->included_from + ")") +
                    ": generated headers are missing; build the tree once (e.g. cmake --build " + build_dir.string() +
                    ") and instrument again");
  for (const auto& f : failed) llvm::errs() << f.messages;
  // Old C that gcc accepts with a warning (a `return;` in an int function, ...) is an
  // error to clang: say which flag lets clang parse it as gcc compiles it.
  const detail::FailedUnit* warned = nullptr;
  for (const auto& f : failed)
    if (!warned && !f.error_warning_groups.empty()) warned = &f;
  if (warned) {
    const std::string& group = warned->error_warning_groups.front();
    llvm::errs() << "dlfl: hint: clang rejects what gcc may accept (-W" << group << " in " << warned->file
                 << "); pass --extra-arg=-Wno-error=" << group << " (or --extra-arg=-Wno-" << group
                 << ") to dlfl instrument\n";
  } else {
    llvm::errs() << "dlfl: hint: if gcc compiles these units, give clang the flags it needs with --extra-arg "
                    "(e.g. --extra-arg=-std=gnu89), or rewrite them anyway with --allow-errors\n";
  }
  llvm::errs().flush();
  throw Error("clang reported errors in " + std::to_string(failed.size()) + " of " + std::to_string(units) +
              " translation units (see above; --allow-errors rewrites them anyway): " + failed.front().file +
              (failed.size() > 1 ? " and " + std::to_string(failed.size() - 1) + " more" : ""));
}

}  // namespace

std::optional<ProbeGranularity> parse_probe_granularity(std::string_view name) noexcept {
  if (name == "statement") return ProbeGranularity::statement;
  if (name == "block") return ProbeGranularity::block;
  return std::nullopt;
}

std::string_view probe_granularity_name(ProbeGranularity granularity) noexcept {
  return granularity == ProbeGranularity::block ? "block" : "statement";
}

InstrumentResult instrument(const InstrumentOptions& o) {
  auto log = [&](const std::string& line) {
    if (o.log) o.log(line);
  };
  if (o.out_dir.empty() && !o.call_graph_only) throw Error("instrument: an output directory is required");
  if (o.call_graph_only && o.call_graph.empty()) throw Error("instrument: a call graph file is required");
  std::string message;
  auto db = clang::tooling::CompilationDatabase::loadFromDirectory(o.build_dir.string(), message);
  if (!db) throw Error((o.build_dir / "compile_commands.json").string(), 0, message);

  const fs::path out_dir = o.out_dir.empty() ? fs::path() : canonical_or_absolute(o.out_dir);
  const fs::path build_dir = canonical_or_absolute(o.build_dir);
  fs::path root = o.root.empty() ? fs::path() : canonical_or_absolute(o.root);
  std::vector<std::string> sources = select_sources(*db, o, root);
  if (root.empty()) {
    std::vector<fs::path> paths;
    for (const auto& s : sources) paths.push_back(canonical_or_absolute(s));
    root = common_directory(paths);
  }
  std::erase_if(sources, [&](const std::string& s) { return excluded(canonical_or_absolute(s), root, o.exclude); });
  if (sources.empty()) throw Error(o.build_dir.string(), 0, "every translation unit is excluded");
  if (!o.call_graph_only && (out_dir == root || is_under(root, out_dir)))
    throw Error(out_dir.string(), 0, "the output directory must not contain the source root " + root.string());

  std::set<std::string> units;
  for (const auto& s : sources) units.insert(canonical_or_absolute(s).string());
  detail::PlannerConfig config;
  config.granularity = o.granularity;
  config.instrumentable = [&](const std::string& real) {
    if (real.empty()) return false;
    const fs::path p(real);
    if (!is_under(p, root) || is_under(p, out_dir)) return false;
    // Generated files of an in-tree build directory are not sources (a build directory
    // that is the root itself, as in small projects, excludes nothing).
    if (is_under(build_dir, root) && is_under(p, build_dir)) return false;
    if (excluded(p, root, o.exclude)) return false;
    return o.headers || units.count(real) > 0;
  };

  const detail::CudaStubDirectory stubs;
  const std::vector<std::string> extra = o.extra_args;
  const std::string stub_dir = stubs.path();
  const clang::tooling::ArgumentsAdjuster adjust = clang::tooling::combineAdjusters(
      clang::tooling::combineAdjusters(
          [extra, stub_dir](const clang::tooling::CommandLineArguments& args, llvm::StringRef file) {
            clang::tooling::CommandLineArguments out = detail::is_cuda_command(args, file.str())
                                                           ? detail::clang_cuda_args(args, file.str(), stub_dir)
                                                           : args;
            // The resource directory of the clang 14 we link (builtin headers such as
            // stddef.h): the default would be looked up next to the dlfl executable.
            out.insert(out.begin() + 1, {"-resource-dir", DLFL_CLANG_RESOURCE_DIR, "-w"});
            out.insert(out.end(), extra.begin(), extra.end());
            return out;
          },
          clang::tooling::getClangStripOutputAdjuster()),
      clang::tooling::combineAdjusters(clang::tooling::getClangStripDependencyFileAdjuster(),
                                       clang::tooling::getClangSyntaxOnlyAdjuster()));

  const unsigned jobs = static_cast<unsigned>(
      std::min<std::size_t>(o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency()), sources.size()));
  log("instrumenting " + std::to_string(sources.size()) + " translation units under " + root.string() + " (" +
      std::to_string(jobs) + (jobs == 1 ? " job)" : " jobs)"));
  detail::ParsedUnits parsed = detail::parse_units(*db, sources, config, adjust, jobs, o.log);
  if (!parsed.failed.empty() && !o.allow_errors) report_failures(parsed.failed, sources.size(), build_dir);
  const detail::PlanSet& plans = parsed.plans;

  InstrumentResult result;
  const graph::CallGraph calls = parsed.calls.resolve();
  result.functions = calls.function_count();
  result.calls = calls.call_count();
  result.call_graph = o.call_graph.empty() ? out_dir / graph::kCallGraphFileName : o.call_graph;
  if (o.call_graph_only) {
    graph::write_call_graph(calls, result.call_graph);
    return result;
  }
  fs::create_directories(out_dir);
  graph::write_call_graph(calls, result.call_graph);
  // The map of an earlier run into out_dir: unchanged files keep their ids and text, so
  // instrumenting after an edit rewrites the edited files only (rewrite.h).
  std::optional<ProbeMap> previous;
  if (std::error_code ec; fs::is_regular_file(out_dir / kProbeMapFileName, ec)) {
    try {
      previous = read_probe_map(out_dir / kProbeMapFileName);
      if (previous->root != root.string()) previous.reset();
    } catch (const Error& e) {
      log(std::string("not reusing the ids of the earlier probe map: ") + e.what());
    }
  }
  const detail::AssignedIds ids = detail::build_probe_map(plans, root, previous ? &*previous : nullptr);
  result.rewritten = detail::write_instrumented_tree(plans, ids, root, out_dir);
  result.probe_map = out_dir / kProbeMapFileName;
  result.probes = ids.probes;
  result.translation_units = static_cast<std::uint32_t>(sources.size());
  result.skipped_functions = plans.skipped_functions;
  result.kept_files = ids.kept_files;
  if (o.copy_tree) {
    const std::set<fs::path> rewritten(result.rewritten.begin(), result.rewritten.end());
    // A file an earlier run rewrote that has no probes now gets its original back.
    std::set<fs::path> stale;
    if (previous)
      for (const auto& f : previous->files)
        if (const fs::path target = out_dir / f; !fs::path(f).is_absolute() && !rewritten.count(target))
          stale.insert(target);
    detail::copy_tree(root, out_dir, build_dir, rewritten, stale);
  }
  log("wrote " + std::to_string(result.rewritten.size()) + " files with " + std::to_string(result.probes) +
      " probes and " + result.probe_map.string() +
      (ids.kept_files ? " (" + std::to_string(ids.kept_files) + " files unchanged since the last run)" : ""));
  return result;
}

}  // namespace dlfl::instrument
