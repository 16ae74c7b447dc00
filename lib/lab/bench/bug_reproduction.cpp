// One real bug from checkout to evaluation (include/dlfl/lab/bench/bug_reproduction.h).
#include "dlfl/lab/bench/bug_reproduction.h"
#include "dlfl/lab/bench/fix_truth.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "dlfl/lab/bench/bug_kill_matrix.h"
#include "dlfl/lab/bench/bugscpp_reproduction.h"
#include "dlfl/lab/bench/cmake_test_options.h"
#include "dlfl/lab/bench/download_detection.h"
#include "dlfl/lab/bench/download_pinning.h"
#include "dlfl/lab/bench/step_log.h"
#include "dlfl/lab/bench/test_step_progress.h"
#include "dlfl/lab/bench/watchdog.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/collect/shell_quoting.h"
#include "dlfl/error.h"
#include "dlfl/probe_map/probe_map.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/spectrum_subset.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

// A compilation database with at least one entry.
bool has_compile_database(const fs::path& build) {
  std::ifstream in(build / "compile_commands.json");
  for (char ch; in.get(ch);)
    if (ch == '{') return true;
  return false;
}

// Why the first failing test of a run failed, its message's first line: when every test
// fails on both versions, a cause common to all (a test runner dlfl cannot read) shows.
std::string first_failure(const TreeSpectrum& run) {
  for (const auto& test : run.spectrum.tests())
    if (test.failed() && !test.message.empty())
      return "; on the fixed version " + test.name + " fails with: " + test.message.substr(0, test.message.find('\n'));
  return "";
}

std::string joined(const std::vector<std::string>& items, std::size_t limit = 10) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > limit) out += ", ... (" + std::to_string(items.size() - limit) + " more)";
  return out;
}

// A GoogleTest-style filter selecting exactly these tests, or "" (run all) when a name
// holds a character the filter syntax reads as an operator.
std::string filter_for(const std::set<std::string>& names) {
  std::string filter;
  for (const auto& name : names) {
    if (name.find_first_of(":-*?") != std::string::npos) return "";
    filter += (filter.empty() ? "" : ":") + name;
  }
  return filter;
}

// The tests failing on the buggy version and passing on the fixed one, and those of them
// left out because only a timeout made them fail: a test that timed out on the buggy
// version counts only where the fix passes it in under a quarter of the time the buggy
// run was given (a hang the fix cures). A slow test near its limit times out or not with
// the machine's load, which may well differ between the two runs (the fixed one runs
// only the failing tests), and its failing run would put the load into the spectrum.
std::pair<std::set<std::string>, std::vector<std::string>> fail_to_pass_tests(const TreeSpectrum& buggy,
                                                                              const TreeSpectrum& fixed) {
  std::map<std::string, const TestCase*> before;
  for (const auto& test : buggy.spectrum.tests()) before.emplace(test.name, &test);
  std::set<std::string> fail_to_pass;
  std::vector<std::string> slow;
  for (const auto& test : fixed.spectrum.tests()) {
    if (test.failed() || !buggy.failing.contains(test.name)) continue;
    const auto it = before.find(test.name);
    if (it != before.end() && it->second->status == TestStatus::timed_out && 4 * test.runtime_ns >= it->second->runtime_ns)
      slow.push_back(test.name);
    else
      fail_to_pass.insert(test.name);
  }
  return {std::move(fail_to_pass), std::move(slow)};
}

}  // namespace

void keep_spectrum(const BugPlan& plan, const Spectrum& spectrum, const std::vector<eval::GroundTruthItem>& truth,
                   const std::vector<eval::GroundTruthItem>& whole_file_truth) {
  if (plan.spectrum_dir.empty()) return;
  fs::create_directories(plan.spectrum_dir);
  io::write_native(spectrum, plan.spectrum_dir / (plan.bug->id + ".dlfl"));
  const auto write_truth = [&](const std::vector<eval::GroundTruthItem>& items, const std::string& suffix) {
    std::string lines;
    for (const auto& item : items) lines += eval::to_string(item) + "\n";
    write_text(plan.spectrum_dir / (plan.bug->id + suffix), lines);
  };
  write_truth(truth, ".truth");
  write_truth(whole_file_truth, ".whole-file.truth");
}

std::string localize_reproduced_bug(const FaultContext& c, const BugPlan& plan, const Spectrum& spectrum,
                                    FaultRecord& r) {
  const auto truth = fix_truth(*plan.bug, spectrum, TruthRule::adjacent_lines);
  r.faulty.clear();
  for (const auto& item : truth) r.faulty.push_back(eval::to_string(item));
  if (!truth.empty()) {
    r.file = truth.front().file;
    r.line = r.end_line = truth.front().line;
    r.function = truth.front().function;
  }
  r.results = evaluate_formulas(c, spectrum, truth);
  if (std::string why = unfindable_fault(r.results, truth.size()); !why.empty()) return why;
  keep_spectrum(plan, spectrum, truth, fix_truth(*plan.bug, spectrum, TruthRule::whole_file));
  return "";
}

namespace {

std::string group_of(const eval::BugReport& bug) {
  if (bug.bugscpp) return "traditional";  // BugsC++: the non-DL side of a comparison
  if (!bug.labels) return "unlabelled";
  const auto& extrinsic = bug.labels->agreed.extrinsic;
  if (!extrinsic) return "disputed";
  return *extrinsic ? "extrinsic" : "intrinsic";
}

std::string bug_type_of(const eval::BugReport& bug) {
  if (bug.bugscpp) return "traditional";
  if (!bug.labels) return "unlabelled";
  const auto& agreed = bug.labels->agreed;
  if (!agreed.dl_bug_type.empty()) return agreed.dl_bug_type;
  if (agreed.dl_bug == false) return "not DL";
  return "disputed";
}

}  // namespace

FaultRecord describe_bug(const BugPlan& plan) {
  const eval::BugReport& bug = *plan.bug;
  FaultRecord r;
  r.subject = bug.project;
  // The store's key is subject#fault: the bug's id when it is project#number.
  r.fault = bug.id.starts_with(bug.project + "#") ? bug.id.substr(bug.project.size() + 1) : bug.id;
  r.kind = bug.category.empty() ? "unknown" : bug.category;
  r.group = group_of(bug);
  r.bug_type = bug_type_of(bug);
  if (plan.clone) r.clone = plan.clone->dir().string();
  r.recipe = plan.recipe_digest;
  r.host = plan.host;
  r.attempt = plan.attempt;
  for (const auto& item : plan.candidacy.native_truth) r.faulty.push_back(eval::to_string(item));
  if (!plan.candidacy.native_truth.empty()) {
    const auto& first = plan.candidacy.native_truth.front();
    r.file = first.file;
    r.line = r.end_line = first.line;
    r.function = first.function;
  }
  return r;
}

FaultRecord reproduce_bug(const FaultContext& given, const WorkTree& tree, const BugPlan& plan,
                          const std::function<void(const std::string&)>& log) {
  if (plan.bug->bugscpp) return reproduce_bugscpp_bug(given, tree, plan, log);
  FaultContext c = given;  // its downloads are pinned to this bug's date below
  const auto start = std::chrono::steady_clock::now();
  FaultRecord r = describe_bug(plan);
  auto discard = [&](const std::string& reason, const std::string& detail) {
    return r = discarded(std::move(r), reason, detail, start, log);
  };
  auto interrupted = [&] { return c.interrupt && c.interrupt->load(); };
  const Subject& recipe = *c.subject;
  const eval::BugCandidacy& candidacy = plan.candidacy;
  if (!candidacy.native_change())
    return discard("no C/C++ change", "the fix changes no C/C++/CUDA line outside the tests");

  // The buggy version: the parent, with the test files as the fix left them. Returns
  // {reason, detail} of a failure, or {} (also for the mutation analysis's checkout).
  const auto check_out_buggy = [&]() -> std::pair<std::string, std::string> {
    if (const GitResult r0 = check_out_clean(*plan.clone, tree.source, plan.parent); !r0.ok)
      return {"checkout failed", "checking out the parent " + plan.parent.substr(0, 12) + ": " + r0.what};
    if (!candidacy.test_files.empty()) {
      std::vector<std::string> args{"checkout", plan.fix, "--"};
      args.insert(args.end(), candidacy.test_files.begin(), candidacy.test_files.end());
      if (const GitResult g = run_git(tree.source, args); !g.ok)
        return {"checkout failed", "bringing in the fix's test files: " + g.what};
    }
    for (const auto& file : candidacy.deleted_test_files) {
      fs::path path;
      try {
        path = path_inside(tree.source, file, "a test file the fix deletes");
      } catch (const Error& e) {
        return {"unsafe path", e.what()};
      }
      std::error_code ec;
      fs::remove(path, ec);
    }
    return {};
  };
  if (const auto [reason, detail] = check_out_buggy(); !reason.empty()) return discard(reason, detail);
  r.fix_tests = candidacy.test_files;
  if (log && candidacy.tests_touched())
    log(r.key() + ": test files of the fix brought into the buggy version (Defects4J convention): " +
        joined(candidacy.test_files) +
        (candidacy.deleted_test_files.empty() ? "" : "; removed: " + joined(candidacy.deleted_test_files)));

  // Configure-time downloads come from the url_map clones as they were on the buggy
  // commit's date (download_pinning.h): a 2016 project's `master` of GoogleTest is not
  // today's.
  if (!recipe.url_map.empty()) {
    const GitResult date = run_git(plan.clone->dir(), {"log", "-1", "--format=%cI", plan.parent, "--"});
    if (!date.ok) return discard("checkout failed", "reading the buggy commit's date: " + date.what);
    PinnedUrlMap pinned;
    try {
      pinned = pin_downloads(recipe.url_map, recipe.url_pin, date.out, configure_time_refs(tree.source),
                             tree.build.parent_path() / "downloads");
    } catch (const Error& e) {
      return discard("configure-time download", e.what());
    }
    std::erase_if(c.build_env, [](const std::string& entry) { return entry.starts_with("GIT_CONFIG_"); });
    for (auto& entry : url_map_environment(pinned.url_map)) c.build_env.push_back(std::move(entry));
    for (const auto& pin : pinned.pins) r.downloads.push_back(pin.describe());
    if (log) log(r.key() + ": downloads pinned: " + joined(r.downloads, r.downloads.size()));
  }

  // Submodules: fetched (through the recipe's url_map, if any) after each checkout; only
  // those the recipe names where it names them, and of those the ones this version has
  // (a project adds submodules over the years).
  const auto update_submodules = [&](const std::string& version) -> std::optional<FaultRecord> {
    if (!fs::exists(tree.source / ".gitmodules")) return std::nullopt;
    if (recipe.submodules && recipe.submodules->empty()) return std::nullopt;
    std::vector<std::string> args{"submodule", "update", "--init", "--recursive", "--"};
    if (recipe.submodules) {
      std::vector<std::string> listed{"ls-files", "--stage", "--"};
      listed.insert(listed.end(), recipe.submodules->begin(), recipe.submodules->end());
      const GitResult present = run_git(tree.source, listed);
      if (!present.ok) return discard("checkout failed", "listing the " + version + " version's submodules: " + present.what);
      std::istringstream lines(present.out);
      for (std::string line; std::getline(lines, line);)  // "160000 SHA 0\tPATH" for a submodule
        if (const auto tab = line.find('\t'); line.starts_with("160000 ") && tab != std::string::npos)
          args.push_back(line.substr(tab + 1));
      if (args.back() == "--") return std::nullopt;
    }
    const GitResult g = run_git(tree.source, args, c.build_env);
    keep_log(plan.log_dir, version + "-submodules.log", g.out + "\n" + g.what + "\n");
    if (g.ok) return std::nullopt;
    std::string urls;
    for (const auto& url : configure_time_urls(tree.source)) urls += (urls.empty() ? "" : ", ") + url;
    return discard("configure-time download", "the submodules of the " + version + " version: " + g.what +
                                                   "; it needs " + urls + " (map each to a local clone with the recipe's \"url_map\")");
  };
  // One prepare, configure or build command (`doing`: "preparing", "configuring",
  // "building"); its output is kept, a failure discards the bug.
  const auto step = [&](const FaultContext& context, const WorkTree& where, const std::string& command,
                        const std::string& version, const std::string& log_name,
                        std::string_view doing) -> std::optional<FaultRecord> {
    const bool configuring = doing == "configuring";
    const StepProgress progress{r.key() + ": " + version + "-" + log_name, log};
    const CommandOutcome outcome = run_tree_command(context, where, command, c.test_jobs, c.interrupt, &progress);
    if (interrupted()) throw Error("interrupted");
    keep_log(plan.log_dir, version + "-" + log_name + ".log", outcome.output);
    if (outcome.ok) return std::nullopt;
    r.tail = output_tail(outcome.output);
    const std::string summary = std::string(doing) + " the " + version + " version: " + failure_summary(outcome);
    if (outcome.timed_out) return discard("timeout", summary);
    if (const std::string urls = download_urls(outcome.output, tree.source); configuring && !urls.empty())
      return discard("configure-time download",
                     summary + "; it downloads " + urls + " (map each to a local clone with the recipe's \"url_map\")");
    return discard("build failed", summary);
  };

  // The recipe's "prepare", in the checkout after each checkout (subject.h).
  const auto prepare = [&](const std::string& version) -> std::optional<FaultRecord> {
    if (recipe.prepare.empty()) return std::nullopt;
    return step(c, tree, recipe.prepare, version, "prepare", "preparing");
  };

  // The runtime backend builds and runs an instrumented copy of the checkout (`dlfl
  // instrument` over a plain build's compilation database): one run of the test binary
  // per version instead of one gcov run per test.
  const bool runtime = recipe.backend == Backend::runtime;
  const WorkTree plain{tree.source, tree.build.parent_path() / "build-plain"};
  const WorkTree instrumented{tree.build.parent_path() / "instrumented", tree.build};
  const WorkTree& built = runtime ? instrumented : tree;
  FaultContext plain_context = c;
  plain_context.vars["cflags"] = recipe.extra_cflags;
  plain_context.vars["ldflags"] = "";
  // `dlfl instrument` reads the plain build's compilation database: CMake (3.17 on) writes
  // it for any configure command when this variable is in its environment.
  plain_context.build_env.push_back("CMAKE_EXPORT_COMPILE_COMMANDS=ON");
  FaultContext run_context = c;
  if (runtime) run_context.probe_map = instrumented.source / instrument::kProbeMapFileName;
  std::string& fix_tests = run_context.vars[std::string(kFixTestsPlaceholder)];
  for (const auto& file : candidacy.test_files) fix_tests += file + "\n";
  const auto instrument = [&](const std::string& version) -> std::optional<FaultRecord> {
    if (!has_compile_database(plain.build))
      return discard("build failed", "configuring the " + version + " version: " + missing_compile_database_reason(plain.build));
    std::error_code ec;
    fs::remove_all(instrumented.source, ec);  // files the fix deleted must not stay behind
    std::vector<std::string> argv = c.instrument_command;
    for (const std::string& arg : {std::string("-p"), plain.build.string(), std::string("-o"), instrumented.source.string(),
                                   std::string("--root"), tree.source.string(), std::string("-j"),
                                   std::to_string(c.test_jobs), std::string("--allow-errors"), std::string("-q")})
      argv.push_back(arg);
    for (const auto& pattern : recipe.instrument_exclude) argv.insert(argv.end(), {"-x", pattern});
    std::string command;
    for (const auto& arg : argv) command += (command.empty() ? "" : " ") + collect::shell_quote(arg);
    const StepProgress progress{r.key() + ": " + version + "-instrument", log};
    const CommandOutcome outcome =
        run_command(command, tree.build.parent_path(), c.build_env, recipe.build_timeout, c.interrupt, &progress);
    if (interrupted()) throw Error("interrupted");
    keep_log(plan.log_dir, version + "-instrument.log", outcome.output);
    if (outcome.ok) return std::nullopt;
    r.tail = output_tail(outcome.output);
    return discard(outcome.timed_out ? "timeout" : "build failed",
                   "instrumenting the " + version + " version: " + failure_summary(outcome));
  };

  const std::string base_cmake_args = c.vars.count("cmake_args") ? c.vars.at("cmake_args") : "";
  const bool generic = recipe.configure == generic_recipe().configure;
  const auto with_test_options = [&](FaultContext& context, const std::string& version, bool say) {
    context.vars["cmake_args"] = base_cmake_args;
    if (!generic) return;
    std::string added;
    for (const auto& name : cmake_test_options(tree.source))
      if (name != "BUILD_TESTING" && base_cmake_args.find("-D" + name + "=") == std::string::npos)
        added += (added.empty() ? "" : " ") + ("-D" + name + "=ON");
    if (added.empty()) return;
    context.vars["cmake_args"] += (base_cmake_args.empty() ? "" : " ") + added;
    if (log && say) log(r.key() + ": the " + version + " version's test options turned on (generic recipe): " + added);
  };
  const auto build = [&](const std::string& version, bool configure) -> std::optional<FaultRecord> {
    if (auto d = update_submodules(version)) return d;
    if (auto d = prepare(version)) return d;
    // A bug's first configure starts from a fresh CMake cache: the tree's cache holds the
    // options of the version built before (another bug's), and a project that renamed an
    // option takes the old entry for the user's choice (oneDNN reads a cached
    // MKLDNN_CPU_RUNTIME as the obsolete spelling and then does not compile). The objects
    // stay, so the build is still incremental where the compile commands did not change.
    if (configure) {
      std::error_code ec;
      fs::remove(built.build / "CMakeCache.txt", ec);
      if (runtime) fs::remove(plain.build / "CMakeCache.txt", ec);
      // Nor may another version's compilation database pass for this one's.
      if (runtime) fs::remove(plain.build / "compile_commands.json", ec);
    }
    // The generic recipe turns on the test options this version declares (a project whose
    // tests, or whose only C++ target, are built under BUILD_TESTS).
    FaultContext configure_context = c;
    if (configure) with_test_options(configure_context, version, true);
    if (configure && runtime && !c.runtime_cmake_args.empty()) {
      std::string& args = configure_context.vars["cmake_args"];
      args += (args.empty() ? "" : " ") + c.runtime_cmake_args;
    }
    if (runtime) with_test_options(plain_context, version, !configure);
    if (runtime) {
      if (auto d = step(plain_context, plain, recipe.configure, version, "plain-configure", "configuring")) return d;
      if (auto d = instrument(version)) return d;
    }
    if (configure)
      if (auto d = step(configure_context, built, recipe.configure, version, "configure", "configuring")) return d;
    return step(c, built, recipe.build, version, "build", "building");
  };
  const auto run_tests = [&](const FaultContext& context, const std::string& version, TreeSpectrum& out)
      -> std::optional<FaultRecord> {
    Watchdog watchdog(recipe.fault_timeout, c.interrupt);
    TestStepProgress progress(r.key() + ": " + version + "-tests", log);
    FaultContext told = context;
    told.progress = &progress;
    try {
      out = collect_tree(told, built, watchdog.flag());
      progress.finish();
      // Its last tests may have died of the signal that stops this run.
      if (interrupted()) throw Error("interrupted");
    } catch (const Error& e) {
      if (interrupted()) throw Error("interrupted");
      const auto* listing = dynamic_cast<const TestListFailure*>(&e);
      keep_log(plan.log_dir, version + "-tests.log",
               std::string(e.what()) + "\n" + (listing ? "\nThe test_list command's output:\n" + listing->output : ""));
      if (watchdog.expired())
        return discard("timeout", "the tests of the " + version + " version ran longer than " +
                                      std::to_string(recipe.fault_timeout.count()) + " s");
      return discard("tests fail to run", "the " + version + " version: " + e.what());
    }
    return std::nullopt;
  };

  const auto build_start = std::chrono::steady_clock::now();
  if (auto d = build("buggy", true)) return *d;
  const double buggy_build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - build_start).count();
  TreeSpectrum buggy;
  if (auto d = run_tests(run_context, "buggy", buggy)) return *d;
  r.tests = buggy.spectrum.test_count();
  if (buggy.failing.empty())
    return discard("no fail-to-pass test",
                   "no test fails on the buggy version (" + std::to_string(buggy.spectrum.test_count()) + " tests)");

  // The fixed version: the fix itself; only the tests failing on the buggy one matter.
  if (const GitResult g = run_git(tree.source, {"checkout", "--force", "--quiet", "--detach", plan.fix}); !g.ok)
    return discard("checkout failed", "checking out the fix: " + g.what);
  if (auto d = build("fixed", false)) return *d;
  FaultContext fixed_context = run_context;
  fixed_context.test_filter = filter_for(buggy.failing);
  fixed_context.listed_only = buggy.failing;
  // A test that crashes on both versions writes no gcov data on either: the fixed run
  // has then no coverage at all, and that is its answer (no fail-to-pass), not a failure.
  fixed_context.outcomes_only = true;
  TreeSpectrum fixed;
  if (auto d = run_tests(fixed_context, "fixed", fixed)) return *d;
  const auto split = fail_to_pass_tests(buggy, fixed);
  const std::set<std::string>& fail_to_pass = split.first;
  const std::vector<std::string>& slow = split.second;
  if (!slow.empty())
    keep_log(plan.log_dir, "fail-to-pass.log",
             "Timed out on the buggy version and passed on the fixed one in more than a quarter of the time the buggy "
             "run was given, so not counted as fail-to-pass:\n" + joined(slow, slow.size()) + "\n");
  if (fail_to_pass.empty())
    return discard("no fail-to-pass test",
                   std::to_string(buggy.failing.size()) + " tests fail on the buggy version and none passes on the fixed one" +
                       (slow.empty() ? "" : " well inside the time limit (" + std::to_string(slow.size()) +
                                                " timed out on the buggy version and took more than a quarter of that time on "
                                                "the fixed one)") +
                       ": " + joined({buggy.failing.begin(), buggy.failing.end()}, 5) + first_failure(fixed));

  // Spectrum: the code outside the tests; the tests passing on the buggy version and the
  // fail-to-pass ones (a test failing on both versions fails for another reason).
  const Spectrum& all = buggy.spectrum;
  const Spectrum spectrum = subset(
      all, [&](std::size_t e) { return !eval::is_test_path(all.file(e)); },
      [&](std::size_t t) { return !all.tests()[t].failed() || fail_to_pass.contains(all.tests()[t].name); });
  r.tests = spectrum.test_count();
  r.failing = fail_to_pass.size();
  r.elements = spectrum.element_count();
  r.failing_tests.assign(fail_to_pass.begin(), fail_to_pass.end());
  if (const std::string why = localize_reproduced_bug(c, plan, spectrum, r); !why.empty())
    return discard("no faulty line in the spectrum", why);

  // Mutation-based localization on the buggy version, checked out again.
  if (!c.kill_matrix.command.empty()) {
    if (const auto [reason, detail] = check_out_buggy(); !reason.empty()) return discard(reason, detail);
    if (auto d = update_submodules("buggy")) return *d;
    if (auto d = prepare("buggy")) return *d;
    BugKillMatrixRun run;
    run.source = tree.source;
    run.compile_database = runtime ? plain.build : tree.build;
    run.out = tree.build.parent_path() / "kill-matrix";
    run.plain_build_seconds = buggy_build_seconds;
    set_bug_owner(plan, run);
    FaultContext configured = c;
    with_test_options(configured, "buggy", false);
    bool schemata = true;
    try {
      set_recipe_schemata(c, configured.vars, built.build, run);
    } catch (const Error& e) {
      no_kill_matrix(r, e.what(), log);
      schemata = false;
    }
    if (schemata)
      add_kill_matrix(c, run, spectrum, fix_truth(*plan.bug, spectrum, TruthRule::adjacent_lines), r, log);
  }
  r.kept = true;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace dlfl::bench
