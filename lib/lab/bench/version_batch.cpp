// The driver of `dlfl versions` (include/dlfl/lab/bench/version_batch.h).
#include "dlfl/lab/bench/version_batch.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "dlfl/lab/bench/build_runner.h"
#include "dlfl/lab/bench/fault_pipeline.h"
#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/bench/run_directory.h"
#include "dlfl/lab/bench/subject.h"
#include "dlfl/lab/bench/version_truth.h"
#include "dlfl/lab/bench/watchdog.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/collect/collector.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/fault_matching.h"
#include "dlfl/formula.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

struct Version {
  fs::path path;  // absolute
  std::string name;
  bool patch = false;
};

// The placeholders of the build and test commands; `{}` (the test name) stays for the
// collector.
std::map<std::string, std::string> command_vars(const WorkTree& tree, unsigned jobs) {
  return {{"source", tree.source.string()}, {"build", tree.build.string()}, {"jobs", std::to_string(jobs)},
          {"cflags", "--coverage"},         {"ldflags", "--coverage"},      {"launcher", ""},
          {"cmake_args", ""},               {"", "{}"}};
}

// A digest of the original tree's files (names and bytes): stored results and cached
// reference outputs belong to one original.
std::string tree_digest(const fs::path& root) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  for (const auto& file : tree_files(root)) {
    const std::string name = file.generic_string();
    const std::string bytes = read_text(root / file);
    XXH3_64bits_update(state, name.data(), name.size() + 1);  // with its '\0'
    XXH3_64bits_update(state, bytes.data(), bytes.size());
  }
  const auto digest = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return fmt::format("{:016x}", digest);
}

// Makes `tree` hold exactly the files of `from` (sync_tree, then removes the files a
// previous version left).
void mirror_tree(const fs::path& from, const fs::path& tree) {
  sync_tree(from, tree);
  const auto keep = tree_files(from);
  const std::set<fs::path> wanted(keep.begin(), keep.end());
  for (const auto& file : tree_files(tree)) {
    std::error_code ec;
    if (!wanted.contains(file) && (fs::remove(tree / file, ec), ec))
      throw Error((tree / file).string(), 0, "cannot remove: " + ec.message());
  }
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + (!text.empty() && text.back() != '\n');
}

// Per changed file of the version (relative path), its hunks against the original.
std::map<std::string, std::vector<DiffHunk>> version_changes(const fs::path& original, const fs::path& version,
                                                             const fs::path& scratch, const std::atomic<bool>* cancel) {
  std::map<std::string, std::vector<DiffHunk>> changes;
  const auto original_files = tree_files(original);
  const std::set<fs::path> in_original(original_files.begin(), original_files.end());
  fs::create_directories(scratch);
  const fs::path diff_out = scratch / "version.diff";
  for (const auto& file : tree_files(version)) {
    const std::string text = read_text(version / file);
    if (!in_original.contains(file)) {  // a new file: every line is added
      if (const auto n = line_count(text))
        changes[file.generic_string()] = {{0, 0, 1, static_cast<std::uint32_t>(n)}};
      continue;
    }
    if (read_text(original / file) == text) continue;
    const CommandOutcome diff = run_command(
        "diff -U0 -- " + collect::shell_quote((original / file).string()) + " " +
            collect::shell_quote((version / file).string()) + " > " + collect::shell_quote(diff_out.string()) +
            "; test $? -le 1",
        scratch, {}, std::chrono::seconds(120), cancel);
    if (!diff.ok) throw Error((version / file).string(), 0, "diff against the original failed: " + failure_summary(diff));
    auto hunks = parse_diff_hunks(read_text(diff_out), diff_out.string());
    if (!hunks.empty()) changes[file.generic_string()] = std::move(hunks);
  }
  return changes;
}

FaultRecord describe(const std::string& subject, const Version& v) {
  FaultRecord r;
  r.subject = subject;
  r.fault = v.name;
  r.kind = r.group = r.bug_type = "traditional";
  r.op = v.patch ? "patch" : "version";
  return r;
}

struct Shared {
  const VersionsOptions* options = nullptr;
  FaultContext context;
  fs::path work;
  std::string reference_command;  // the --cmd for the original's build
};

FaultRecord run_version(const Shared& s, const WorkTree& tree, const Version& v,
                        const std::function<void(const std::string&)>& log) {
  const VersionsOptions& o = *s.options;
  const auto start = std::chrono::steady_clock::now();
  FaultRecord r = describe(s.context.subject->name, v);
  auto discard = [&](const std::string& reason, const std::string& detail) {
    return r = discarded(std::move(r), reason, detail, start, log);
  };
  auto interrupted = [&] { return o.interrupt && o.interrupt->load(); };
  const fs::path scratch = tree.build.parent_path() / "scratch";

  // A directory version is laid over a copy of the original, so it may hold the whole
  // faulty tree or only the files that differ (a file it lacks is the original's).
  mirror_tree(o.original, tree.source);
  if (v.patch) {
    // Outside a repository git apply patches the working directory; the ceiling keeps it
    // from taking an enclosing repository (the output directory may lie inside one).
    const CommandOutcome applied =
        run_command("git apply -p" + std::to_string(o.patch_strip) + " --whitespace=nowarn -- " +
                        collect::shell_quote(v.path.string()),
                    tree.source,
                    {"GIT_CEILING_DIRECTORIES=" + tree.source.parent_path().string()}, std::chrono::seconds(120),
                    o.interrupt);
    if (interrupted()) throw Error("interrupted");
    if (!applied.ok) return discard("patch fails", failure_summary(applied));
  } else {
    sync_tree(v.path, tree.source);
  }
  const auto changes = version_changes(o.original, tree.source, scratch, o.interrupt);
  if (changes.empty()) return discard("no executable change", "the version is identical to the original");

  const CommandOutcome built = run_tree_command(s.context, tree, o.build, s.context.test_jobs, o.interrupt);
  if (interrupted()) throw Error("interrupted");
  if (!built.ok) return discard(built.timed_out ? "timeout" : "build fails", failure_summary(built));

  collect::CollectRequest c;
  c.source = collect::CommandList{.test_list = o.tests,
                                  .command = expand_command(o.command, command_vars(tree, s.context.test_jobs)),
                                  .reference_command = s.reference_command,
                                  .reference_cache = o.out_dir / "reference-cache"};
  c.coverage = collect::CoverageKind::gcov;
  c.paths.source_root = tree.source;
  c.paths.excludes = o.excludes;
  c.crash_dump_library = o.crash_dump_library;
  c.jobs = s.context.test_jobs;
  c.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(o.test_timeout);
  c.work_dir = scratch;
  collect::CollectResult collected;
  {
    Watchdog watchdog(o.version_timeout, o.interrupt);
    c.interrupt = watchdog.flag();
    try {
      collected = collect::collect(c);
    } catch (const Error& e) {
      if (interrupted()) throw Error("interrupted");
      // The reference cache is the run's, not the version's: stop rather than store a
      // discard a rerun would never retry.
      if (const auto& cache = std::get<collect::CommandList>(c.source).reference_cache;
          !e.file().empty() && e.file().starts_with(cache.string()))
        throw;
      if (watchdog.expired())
        return discard("timeout", "the tests ran longer than " + std::to_string(o.version_timeout.count()) + " s");
      return discard("tests fail to run", e.what());
    }
  }
  const Spectrum& spectrum = collected.spectrum;
  r.tests = spectrum.test_count();
  r.failing = collected.stats.failing;
  r.elements = spectrum.element_count();
  if (r.failing == 0) return discard("no test fails", "");
  if (r.failing == r.tests) return discard("every test fails", "");

  const std::vector<eval::GroundTruthItem> truth = spectrum_truth(spectrum, changes);
  if (truth.empty())
    return discard("no executable change", "no changed line of " + changes.begin()->first +
                                               (changes.size() > 1 ? " (or the other changed files)" : "") +
                                               " lies near an executable line");
  for (const auto& item : truth) r.faulty.push_back(eval::to_string(item));
  r.file = truth.front().file;
  r.line = r.end_line = truth.front().line;
  r.function = truth.front().function;
  for (const auto& test : spectrum.tests())
    if (test.failed()) r.failing_tests.push_back(test.name);
  r.results = evaluate_formulas(s.context, spectrum, truth);
  r.kept = true;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::vector<Version> check_versions(const VersionsOptions& o) {
  std::vector<Version> versions;
  std::map<std::string, fs::path> names;
  for (const auto& path : o.versions) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (!fs::is_directory(status) && !fs::is_regular_file(status))
      throw Error(path.string(), 0, "no such faulty version (a directory or a patch file)");
    Version v{fs::absolute(path).lexically_normal(), version_name(path), fs::is_regular_file(status)};
    if (v.name.empty()) throw Error(path.string(), 0, "cannot name this version");
    if (const auto [it, fresh] = names.emplace(v.name, path); !fresh)
      throw Error(path.string(), 0, "two versions named \"" + v.name + "\" (the other: " + it->second.string() + ")");
    versions.push_back(std::move(v));
  }
  if (versions.empty()) throw Error("versions: no faulty version given");
  return versions;
}

}  // namespace

SummaryOptions version_summary_options(const std::vector<std::uint64_t>& top_n, double wall_seconds) {
  return {.top_n = top_n, .wall_seconds = wall_seconds, .run_name = "dlfl versions", .unit = "faulty versions"};
}

std::string version_name(const fs::path& version) {
  fs::path p = version.lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "dir/"
  const std::string ext = p.extension().string();
  if (!fs::is_directory(version) && (ext == ".patch" || ext == ".diff")) return p.stem().string();
  return p.filename().string();
}

VersionsResult run_versions(const VersionsOptions& options) {
  // Absolute: commands run in the build and scratch directories.
  VersionsOptions o = options;
  o.original = fs::absolute(o.original).lexically_normal();
  o.tests = fs::absolute(o.tests).lexically_normal();
  o.out_dir = fs::absolute(o.out_dir).lexically_normal();
  const auto started = std::chrono::steady_clock::now();
  auto interrupted = [&] { return o.interrupt && o.interrupt->load(); };
  auto log = [&](std::string_view line) {
    if (o.progress) o.progress->note(line);
    else if (o.log) o.log(line);
  };

  // Everything is checked before anything is written.
  if (!fs::is_directory(o.original)) throw Error(o.original.string(), 0, "the original program's tree is not a directory");
  if (!fs::is_regular_file(o.tests)) throw Error(o.tests.string(), 0, "no such test list");
  const std::vector<Version> versions = check_versions(o);
  for (const auto* command : {&o.build, &o.command}) expand_command(*command, command_vars({}, 1));
  if (o.command.find("{}") == std::string::npos)
    throw Error("the test command '" + o.command + "' has no {} for the test name");
  Subject subject;
  subject.name = o.name.empty() ? o.original.filename().string() : o.name;
  if (subject.name.empty()) subject.name = "original";
  subject.kind = "traditional";
  subject.build = o.build;
  subject.backend = Backend::gcov;
  subject.build_timeout = o.build_timeout;
  Shared s;
  s.options = &o;
  s.context.subject = &subject;
  for (const auto& name : o.formulas) s.context.formulas.push_back(make_formula(name));
  s.context.top_n = o.top_n;
  if (o.exam_base == eval::ExamBase::executable)
    throw Error("versions: EXAM over executable lines is the default here (gcov's elements are the executable lines)");
  s.context.exam_base = o.exam_base;
  s.context.top_n_rule = o.top_n_rule;
  s.context.interrupt = o.interrupt;
  const unsigned jobs = std::max(1u, o.jobs);
  s.context.test_jobs = o.test_jobs ? o.test_jobs : std::max(1u, std::max(1u, std::thread::hardware_concurrency()) / jobs);
  s.work = fs::weakly_canonical(fs::absolute(o.work_dir.empty() ? o.out_dir / "work" : o.work_dir));
  s.context.vars = command_vars({}, 1);
  if (ccache_on_path()) s.context.vars["launcher"] = "-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache";
  s.context.build_env = {"CCACHE_BASEDIR=" + s.work.string()};

  const std::string test_list = read_text(o.tests);
  const nlohmann::json fingerprint = {{"original", o.original.string()},
                                      {"original_digest", tree_digest(o.original)},
                                      {"build", o.build},
                                      {"patch_strip", o.patch_strip},
                                      {"command", o.command},
                                      {"tests", o.tests.string()},
                                      {"tests_digest", fmt::format("{:016x}", XXH3_64bits(test_list.data(), test_list.size()))},
                                      {"excludes", o.excludes},
                                      {"formulas", o.formulas},
                                      {"top_n", o.top_n},
                                      {"exam_base", o.exam_base == eval::ExamBase::executed ? "executed" : "instrumented"},
                                      {"top_n_rule", o.top_n_rule == eval::TopNRule::hits ? "hits" : "expected"}};
  fs::create_directories(o.out_dir);
  check_run_configuration(o.out_dir / std::string(kVersionsConfigFileName), fingerprint.dump(),
                          "versions configuration (original, build, test command, tests, formulas, top N or metric conventions differ)");
  ResultsStore store(o.out_dir / std::string(kResultsFileName));

  VersionsResult result;
  result.selected = versions.size();
  std::vector<const Version*> items;
  for (const auto& v : versions) {
    if (store.contains(describe(subject.name, v).key())) ++result.resumed;
    else items.push_back(&v);
  }
  const std::size_t planned = o.limit ? std::min(o.limit, items.size()) : items.size();

  std::exception_ptr error;
  if (planned > 0) {
    // The original's build is the differential oracle's reference program.
    const WorkTree original{s.work / "original" / "src", s.work / "original" / "build"};
    mirror_tree(o.original, original.source);
    const CommandOutcome built = run_tree_command(s.context, original, o.build, s.context.test_jobs, o.interrupt);
    if (interrupted()) throw Error("interrupted");
    if (!built.ok) throw Error(o.original.string(), 0, "the original does not build: " + failure_summary(built));
    s.reference_command = expand_command(o.command, command_vars(original, s.context.test_jobs));

    error = run_reported_workers(
        jobs, planned, o.progress,
        [&](unsigned k, std::size_t i) {
          const fs::path base = s.work / ("worker" + std::to_string(k));
          const WorkTree tree{base / "src", base / "build"};
          store_finished(store, o.progress, run_version(s, tree, *items[i], [&](const std::string& line) { log(line); }));
        },
        o.interrupt);  // rethrown once the outputs are written
  }

  result.interrupted = interrupted();
  result.records = store.records();
  std::size_t done = 0;
  for (const auto& v : versions) done += store.contains(describe(subject.name, v).key());
  result.pending = versions.size() - done;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_run_outputs(o.out_dir, result.records, version_summary_options(o.top_n, result.seconds));
  if (error) std::rethrow_exception(error);
  return result;
}

}  // namespace dlfl::bench
