// A BugsC++ defect reproduced natively (include/dlfl/lab/bench/bugscpp_reproduction.h).
#include "dlfl/lab/bench/bugscpp_reproduction.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "dlfl/lab/bench/bug_kill_matrix.h"
#include "dlfl/lab/bench/build_runner.h"
#include "dlfl/lab/bench/fix_truth.h"
#include "dlfl/lab/bench/step_log.h"
#include "dlfl/lab/bench/watchdog.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/collect/collector.h"
#include "dlfl/collect/progress.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/bugscpp_import.h"
#include "dlfl/lab/eval/unified_diff.h"
#include "dlfl/spectrum_subset.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using collect::shell_quote;

// "owner+repo" from a repository URL's last two path components (https, ssh, scp
// syntax); "" when it has fewer.
std::string url_project(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.ends_with(".git")) url.resize(url.size() - 4);
  const auto slash = url.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return {};
  const auto before = url.find_last_of("/:", slash - 1);
  if (before == std::string::npos) return {};
  const std::string owner = url.substr(before + 1, slash - before - 1);
  const std::string repo = url.substr(slash + 1);
  return owner.empty() || repo.empty() ? "" : owner + "+" + repo;
}

std::string joined(const std::set<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "none" : out;
}

// Writes `content` to root/rel, refusing to follow a symbolic link on the way (a patch
// may have made one that points out of the tree). rel is contained (checked on import
// and when the manifest is read); returns what went wrong, or "".
std::string write_inside(const fs::path& root, const std::string& rel, const std::string& content) {
  fs::path at = root;
  const fs::path relative(rel);
  for (auto it = relative.begin(); it != relative.end(); ++it) {
    at /= *it;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(at, ec))) return rel + ": " + at.string() + " is a symbolic link";
  }
  try {
    fs::create_directories(at.parent_path());
    write_text(at, content);
  } catch (const std::exception& e) {
    return rel + ": " + e.what();
  }
  return {};
}

void replace_all(std::string& text, std::string_view from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// A command line with its placeholders filled, run by bash as BugsC++'s container does.
std::string bash_line(std::string line, const WorkTree& tree, unsigned jobs) {
  replace_all(line, "{jobs}", std::to_string(jobs));
  replace_all(line, "{source}", tree.source.string());
  return "bash -c " + shell_quote(line) + " || exit $?";
}

std::string lines_script(const std::vector<std::string>& lines, const WorkTree& tree, unsigned jobs,
                         const std::string& indent) {
  std::string out;
  for (const auto& line : lines) out += indent + bash_line(line, tree, jobs) + "\n";
  return out;
}

// BugsC++ runs its commands in Ubuntu 18.04 images; dlfl runs them on the host. Four of
// the images' habits need a stand-in there: `python` is Python 3 (Debian names it python3);
// test scripts call cgi.escape, which Python 3.8 removed (html.escape is its successor);
// the harness flushes coverage with __gcov_flush, which GCC 11 removed, and __gcov_dump
// writes the same counters (the harness calls it just before the process dies); and code
// that built warning-free with GCC 7 meets GCC 12's new warnings under its own -Werror
// (bundled GoogleTest 1.10 among others), so cc, gcc, c++ and g++ on the PATH add
// -Wno-error after every other option (warnings stay warnings; the code generated is the same).
const char* const kHostShims =
    "mkdir -p \"$DLFL_BUGSCPP_DIR/bin\" \"$DLFL_BUGSCPP_DIR/compilers\" || exit 125\n"
    "if ! command -v python >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then\n"
    "  ln -sf \"$(command -v python3)\" \"$DLFL_BUGSCPP_DIR/bin/python\"\n"
    "fi\n"
    "for compiler in cc gcc c++ g++; do\n"
    "  real=$(command -v \"$compiler\") || continue\n"
    "  case $real in \"$DLFL_BUGSCPP_DIR\"/*) continue ;; /*) ;; *) continue ;; esac\n"
    "  case $(readlink -f \"$real\") in */ccache) continue ;; esac\n"  // it finds the compiler by name

    "  ln -sf \"$real\" \"$DLFL_BUGSCPP_DIR/compilers/$compiler\"\n"
    "  printf '#!/bin/sh\\nexec \"$(dirname \"$0\")/../compilers/%s\" \"$@\" -Wno-error\\n' \"$compiler\" > \"$DLFL_BUGSCPP_DIR/bin/$compiler\"\n"
    "  chmod +x \"$DLFL_BUGSCPP_DIR/bin/$compiler\"\n"
    "done\n"
    "PATH=\"$DLFL_BUGSCPP_DIR/bin:$PATH\"; export PATH\n"
    "PYTHONPATH=\"$DLFL_BUGSCPP_DIR/python${PYTHONPATH:+:$PYTHONPATH}\"; export PYTHONPATH\n";
const char* const kPythonShim =
    "# dlfl: Python 3.8 removed cgi.escape, which old test scripts of BugsC++ projects call.\n"
    "try:\n"
    "    import cgi, html\n"
    "    if not hasattr(cgi, 'escape'):\n"
    "        cgi.escape = html.escape\n"
    "except ImportError:\n"
    "    pass\n";

std::string for_current_gcc(std::string text) {
  replace_all(text, "__gcov_flush", "__gcov_dump");
  return text;
}

class Defect {
 public:
  Defect(const FaultContext& c, const WorkTree& tree, const BugPlan& plan)
      : c_(c), tree_(tree), plan_(plan), d_(*plan.bug->bugscpp), dir_(tree.build.parent_path() / "bugscpp") {
    fs::create_directories(dir_ / "python");
    write_text(dir_ / "python" / "sitecustomize.py", kPythonShim);
    write_text(dir_ / "build.sh", prologue(tree_) + lines_script(d_.build_coverage, tree_, c_.test_jobs, ""));
    write_text(dir_ / "case.sh", case_script(tree_, d_.test_coverage));
  }

  fs::path dir() const { return dir_; }

  // The fix commit with the patches applied and the extra files in; "" or what failed.
  std::string prepare(const std::vector<const eval::BugsCppFile*>& patches) const {
    if (const GitResult g = check_out_clean(*plan_.clone, tree_.source, plan_.fix); !g.ok)
      return "checking out the fix " + plan_.fix.substr(0, 12) + ": " + g.what;
    for (const eval::BugsCppFile* patch : patches) {
      if (patch->path.empty()) continue;
      const fs::path file = dir_ / fs::path(patch->path).filename();
      write_text(file, for_current_gcc(patch->content));
      if (const GitResult g = run_git(tree_.source, {"apply", "--whitespace=nowarn", file.string()}); !g.ok)
        return "applying " + patch->path + ": " + g.what;
    }
    for (const auto& extra : d_.extra_files)
      if (std::string error = write_inside(tree_.source, extra.path, for_current_gcc(extra.content)); !error.empty())
        return "copying the extra file " + error;
    return {};
  }

  // The buggy version built as BugsC++ builds it without coverage, under bear, which
  // writes the compilation database kill-matrix parses the sources with (BugsC++'s own
  // @DPP_COMPILATION_DB_TOOL@). Call after prepare().
  CommandOutcome plain_build(const fs::path& database_dir) const {
    fs::create_directories(database_dir);
    write_text(dir_ / "plain-build.sh",
               "command -v bear >/dev/null || { echo 'bear is not installed: it writes the compilation database "
               "(apt-get install bear)' >&2; exit 127; }\n" +
                   prologue(tree_) + lines_script(d_.build, tree_, c_.test_jobs, ""));
    return run_command("bear --output " + shell_quote((database_dir / "compile_commands.json").string()) +
                           " -- bash " + shell_quote((dir_ / "plain-build.sh").string()),
                       tree_.source, c_.build_env, c_.subject->build_timeout, c_.interrupt);
  }

  // Scripts that build kill-matrix's schemata copy `copy` of the prepared tree and run one
  // case there, as BugsC++ does without coverage (the mutants' runs only give outcomes).
  // Returns the build command and the case command template ({} the case).
  std::pair<std::string, std::string> schemata_scripts(const fs::path& copy) const {
    write_text(dir_ / "schemata-case.sh", case_script({copy, copy}, d_.test.empty() ? d_.test_coverage : d_.test));
    return {copy_build("schemata-build.sh", copy), "bash " + shell_quote((dir_ / "schemata-case.sh").string()) + " {}"};
  }

  // The command that builds a copy `copy` of the prepared tree (kill-matrix's schemata or
  // plain copy) by the script `name`. The copy lacks hidden entries, so the defect's hidden
  // extra files (.dpp/test_list) are copied in first.
  std::string copy_build(const std::string& name, const fs::path& copy) const {
    const WorkTree at{copy, copy};
    std::string build = prologue(at);
    for (const auto& extra : d_.extra_files) {
      const fs::path rel(extra.path);
      if (!std::any_of(rel.begin(), rel.end(), [](const fs::path& part) { return part.string().starts_with("."); }))
        continue;
      build += "mkdir -p " + shell_quote(rel.parent_path().empty() ? "." : rel.parent_path().string()) + " && cp " +
               shell_quote((tree_.source / rel).string()) + " " + shell_quote(rel.string()) + " || exit 125\n";
    }
    write_text(dir_ / name, build + lines_script(d_.build, at, c_.test_jobs, ""));
    return "bash " + shell_quote((dir_ / name).string());
  }

  CommandOutcome build() const {
    return run_command("bash " + shell_quote((dir_ / "build.sh").string()), tree_.source, c_.build_env,
                       c_.subject->build_timeout, c_.interrupt);
  }

  // Runs the cases one at a time (they share DPP_TEST_INDEX) with per-case gcov. With
  // outcomes_only (the fixed version, where only pass/fail matters), cases killed before
  // they wrote coverage still give their outcomes instead of an error.
  TreeSpectrum run(const std::vector<std::uint32_t>& cases, const std::atomic<bool>* cancel,
                   bool outcomes_only) const {
    std::string list;
    for (const auto k : cases) list += std::to_string(k) + "\n";
    write_text(dir_ / "cases.txt", list);
    collect::CollectRequest o;
    o.source = collect::CommandList{.test_list = dir_ / "cases.txt",
                                    .command = "bash " + shell_quote((dir_ / "case.sh").string()) + " {}"};
    o.coverage = collect::CoverageKind::gcov;
    o.paths.source_root = tree_.source;
    o.crash_dump_library = c_.crash_dump_library;
    o.jobs = 1;
    o.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(c_.subject->test_timeout);
    o.work_dir = dir_ / "scratch";
    fs::create_directories(o.work_dir);
    o.interrupt = cancel;
    o.outcomes_only = outcomes_only;
    TreeSpectrum out;
    out.spectrum = collect::collect(o).spectrum;
    for (const auto& test : out.spectrum.tests())
      if (test.failed()) out.failing.insert(test.name);
    return out;
  }

 private:
  // The host stand-ins, then into `at`'s source.
  std::string prologue(const WorkTree& at) const {
    return "DLFL_BUGSCPP_DIR=" + shell_quote(dir_.string()) + "\n" + kHostShims + "cd " +
           shell_quote(at.source.string()) + " || exit 125\n";
  }

  // One case: its index in DPP_TEST_INDEX, then the test commands, or the defect's own for
  // its last cases (extra_tests).
  std::string case_script(const WorkTree& at, const std::vector<std::string>& test) const {
    std::string cases = prologue(at) + "echo \"$1\" > DPP_TEST_INDEX\ncase \"$1\" in\n";
    const std::uint32_t first_extra = d_.num_cases - static_cast<std::uint32_t>(d_.extra_tests.size()) + 1;
    for (std::size_t k = 0; k < d_.extra_tests.size(); ++k)
      cases += "  " + std::to_string(first_extra + k) + ")\n" + lines_script(d_.extra_tests[k], at, 1, "    ") + "    ;;\n";
    return cases + "  *)\n" + lines_script(test, at, 1, "    ") + "    ;;\nesac\n";
  }

  const FaultContext& c_;
  const WorkTree& tree_;
  const BugPlan& plan_;
  const eval::BugsCppDefect& d_;
  fs::path dir_;
};

}  // namespace

void take_bugscpp_defects_from_checkout(const std::vector<eval::BugReport*>& bugs, const fs::path& checkout,
                                        const fs::path& manifest) {
  std::vector<eval::BugReport*> defects;
  for (auto* bug : bugs)
    if (bug->bugscpp) defects.push_back(bug);
  if (defects.empty()) return;
  if (checkout.empty())
    throw Error(manifest.string(), 0,
                "bug " + defects.front()->id +
                    " is a BugsC++ defect: its build and test commands come from the BugsC++ checkout you name with "
                    "--bugscpp DIR, never from a manifest");
  std::map<std::string, eval::BugsCppDefect> by_id;
  for (auto& imported : eval::import_bugscpp(checkout))
    if (imported.bugscpp) by_id.emplace(imported.id, std::move(*imported.bugscpp));
  for (auto* bug : defects) {
    const auto it = by_id.find(bug->id);
    if (it == by_id.end())
      throw Error(checkout.string(), 0, "has no BugsC++ defect " + bug->id + " (named by " + manifest.string() + ")");
    if (it->second != *bug->bugscpp)
      throw Error(manifest.string(), 0,
                  "bug " + bug->id + ": its \"bugscpp\" commands, patches or files differ from the defect in " +
                      checkout.string() + "; only the checkout's run: import the manifest again with `dlfl bugset "
                      "import bugscpp " + checkout.string() + "`");
    bug->bugscpp = it->second;
  }
}

GitClone find_bugscpp_clone(const fs::path& repos, const eval::BugReport& bug) {
  const std::string named = bug.bugscpp ? url_project(bug.bugscpp->url) : "";
  const std::string project = named.empty() ? bug.project : named;
  std::error_code ec;
  if (fs::exists(repos / bug.project / ".git", ec) || fs::exists(repos / bug.project / "HEAD", ec))
    return GitClone::find(repos / bug.project, project);
  return GitClone::find(repos, project);
}

FaultRecord reproduce_bugscpp_bug(const FaultContext& c, const WorkTree& tree, const BugPlan& plan,
                                  const std::function<void(const std::string&)>& log) {
  const auto start = std::chrono::steady_clock::now();
  FaultRecord r = describe_bug(plan);
  auto discard = [&](const std::string& reason, const std::string& detail) {
    return r = discarded(std::move(r), reason, detail, start, log);
  };
  auto interrupted = [&] { return c.interrupt && c.interrupt->load(); };
  const eval::BugsCppDefect& d = *plan.bug->bugscpp;
  if (!plan.candidacy.native_change())
    return discard("no C/C++ change", "the buggy patch changes no C/C++/CUDA line outside the tests");
  const Defect defect(c, tree, plan);

  const auto version = [&](const std::string& name, const std::vector<const eval::BugsCppFile*>& patches,
                           const std::vector<std::uint32_t>& cases, TreeSpectrum& out) -> std::optional<FaultRecord> {
    if (const std::string error = defect.prepare(patches); !error.empty())
      return discard("checkout failed", "the " + name + " version: " + error);
    const CommandOutcome built = defect.build();
    if (interrupted()) throw Error("interrupted");
    keep_log(plan.log_dir, name + "-build.log", built.output);
    if (!built.ok) r.tail = output_tail(built.output);
    if (!built.ok)
      return discard(built.timed_out ? "timeout" : "build failed",
                     "building the " + name + " version: " + failure_summary(built));
    Watchdog watchdog(c.subject->fault_timeout, c.interrupt);
    try {
      out = defect.run(cases, watchdog.flag(), name == "fixed");
      if (interrupted()) throw Error("interrupted");  // its last cases may have died of the stopping signal
    } catch (const Error& e) {
      if (interrupted()) throw Error("interrupted");
      keep_log(plan.log_dir, name + "-tests.log", std::string(e.what()) + "\n");
      if (watchdog.expired())
        return discard("timeout", "the cases of the " + name + " version ran longer than " +
                                      std::to_string(c.subject->fault_timeout.count()) + " s");
      return discard("tests fail to run", "the " + name + " version: " + e.what());
    }
    return std::nullopt;
  };

  std::vector<std::uint32_t> all(d.num_cases);
  for (std::uint32_t k = 0; k < d.num_cases; ++k) all[k] = k + 1;
  TreeSpectrum buggy;
  if (auto e = version("buggy", {&d.common_patch, &d.split_patch, &d.buggy_patch}, all, buggy)) return *e;
  r.tests = buggy.spectrum.test_count();
  std::set<std::string> listed;
  for (const auto k : d.cases) listed.insert(std::to_string(k));
  if (buggy.failing != listed) {
    std::set<std::string> passing_listed, failing_unlisted;
    for (const auto& k : listed)
      if (!buggy.failing.contains(k)) passing_listed.insert(k);
    for (const auto& k : buggy.failing)
      if (!listed.contains(k)) failing_unlisted.insert(k);
    return discard("failing cases differ", "meta.json lists case(s) " + joined(listed) +
                                               " as failing; on the buggy version case(s) " + joined(buggy.failing) +
                                               " fail (listed but passing: " + joined(passing_listed) +
                                               "; failing but not listed: " + joined(failing_unlisted) + ")");
  }

  TreeSpectrum fixed;
  if (auto e = version("fixed", {&d.common_patch, &d.split_patch, &d.fixed_patch}, d.cases, fixed)) return *e;
  std::set<std::string> fail_to_pass;
  for (const auto& test : fixed.spectrum.tests())
    if (!test.failed() && buggy.failing.contains(test.name)) fail_to_pass.insert(test.name);
  if (fail_to_pass.empty())
    return discard("no fail-to-pass test", "the listed case(s) " + joined(listed) + " fail on the fixed version too");

  // The cases passing on the buggy version and the fail-to-pass ones, over the code
  // outside the tests.
  const Spectrum& spectrum_all = buggy.spectrum;
  const Spectrum spectrum = subset(
      spectrum_all, [&](std::size_t e) { return !eval::is_test_path(spectrum_all.file(e)); },
      [&](std::size_t t) {
        const auto& test = spectrum_all.tests()[t];
        return !test.failed() || fail_to_pass.contains(test.name);
      });
  r.tests = spectrum.test_count();
  r.failing = fail_to_pass.size();
  r.elements = spectrum.element_count();
  r.failing_tests.assign(fail_to_pass.begin(), fail_to_pass.end());
  if (const std::string why = localize_reproduced_bug(c, plan, spectrum, r); !why.empty())
    return discard("no faulty line in the spectrum", why);

  // Mutation-based localization on the buggy version, prepared again and built plainly
  // for its compilation database.
  if (!c.kill_matrix.command.empty()) {
    if (const std::string error = defect.prepare({&d.common_patch, &d.split_patch, &d.buggy_patch}); !error.empty())
      return discard("checkout failed", "the buggy version: " + error);
    BugKillMatrixRun run;
    run.source = tree.source;
    run.compile_database = defect.dir() / "compdb";
    run.out = tree.build.parent_path() / "kill-matrix";
    set_bug_owner(plan, run);
    const auto plain_start = std::chrono::steady_clock::now();
    const CommandOutcome plain = defect.plain_build(run.compile_database);
    if (interrupted()) throw Error("interrupted");
    keep_log(plan.log_dir, "plain-build.log", plain.output);
    if (!plain.ok) {
      no_kill_matrix(r, "the buggy version's plain build under bear: " + failure_summary(plain), log);
    } else {
      run.plain_build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - plain_start).count();
      std::tie(run.build_command, run.test_command) = defect.schemata_scripts(run.out / "tree");
      run.plain_build_command = defect.copy_build("plain-copy-build.sh", run.out / "plain" / "tree");
      run.jobs = 1;  // the cases share the tree's DPP_TEST_INDEX
      add_kill_matrix(c, run, spectrum, fix_truth(*plan.bug, spectrum, TruthRule::adjacent_lines), r, log);
    }
  }
  r.kept = true;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace dlfl::bench
