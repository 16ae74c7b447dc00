// collect_per_test(): list the tests, run each alone with its own coverage directory on N
// worker threads, read each test's coverage right after it ends, and build the spectrum.
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <thread>

#include "backend_selection.h"
#include "collectors.h"
#include "dlfl/collect/crash_dump.h"
#include "dlfl/collect/reference_oracle.h"
#include "dlfl/collect/test_outcome.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/printable.h"
#include "element_table.h"
#include "interrupt_watch.h"
#include "dlfl/files/scratch_directory.h"
#include "dlfl/files/tree_removal.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct TestRecord {
  TestOutcome outcome;
  std::chrono::nanoseconds runtime{0};
  bool has_coverage = false;
  std::vector<std::uint32_t> covered;  // provisional element ids
  std::vector<std::string> extrinsic;  // labels of extrinsic elements covered (MPI ranks)
};

// Every test the source lists, run with `env` where listing runs a program.
std::vector<TestCommand> list_source(const CollectSource& source, const std::vector<std::string>& env,
                                     std::vector<std::string>& notes) {
  if (const auto* gtest = std::get_if<GtestBinary>(&source)) return list_gtest_tests(gtest->binary, env);
  if (const auto* ctest = std::get_if<CtestDirectory>(&source)) {
    std::vector<std::string> skipped;
    auto tests = list_ctest_tests(ctest->dir, env, &skipped);
    if (!skipped.empty())
      notes.push_back(fmt::format("{} CTest tests are disabled or have no command and are left out", skipped.size()));
    return tests;
  }
  const auto& commands = std::get<CommandList>(source);
  return make_template_commands(read_test_list(commands.test_list), commands.command);
}

// Keeps the tests the filter and the shard select.
void select_tests(const CollectRequest& r, std::vector<TestCommand>& tests, std::vector<std::string>& notes) {
  if (!r.filter.empty()) {
    std::erase_if(tests, [&](const TestCommand& t) { return !gtest_filter_matches(r.filter, t.name); });
    if (tests.empty()) throw Error(fmt::format("the filter '{}' keeps no test", r.filter));
  }
  if (tests.empty()) throw Error("the test source lists no test");
  if (!r.shard) return;
  const bool gtest = std::holds_alternative<GtestBinary>(r.source);
  const std::size_t listed = tests.size();
  std::size_t position = 0;
  std::erase_if(tests, [&](const TestCommand& t) {
    return gtest ? !gtest_shard_holds(*r.shard, position++) : !name_shard_holds(*r.shard, t.name);
  });
  if (tests.empty())
    throw Error(fmt::format("shard {}/{} holds none of the {} tests", r.shard->index, r.shard->count, listed));
  notes.push_back(fmt::format("shard {}/{}: {} of the {} tests", r.shard->index, r.shard->count, tests.size(), listed));
}

std::vector<TestCommand> list_tests(const CollectRequest& r, const fs::path& scratch, std::vector<std::string>& notes) {
  // Listing runs the instrumented binaries; send their coverage into the scratch
  // directory instead of the build tree (where libgcov would merge into the user's .gcda).
  const fs::path listing = scratch / "listing";
  fs::create_directories(listing);
  std::vector<TestCommand> tests = list_source(r.source, listing_coverage_env(listing), notes);
  select_tests(r, tests, notes);
  return tests;
}

// Up to `limit` names, then "and N more".
std::string name_list(const std::vector<std::string>& names, std::size_t limit = 10) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > limit) out += fmt::format(" and {} more", names.size() - limit);
  return out;
}

// Everything fixed before the first test runs: the tests, the backend, the crash
// handler, the oracle and the number of workers.
struct Plan {
  std::vector<TestCommand> tests;
  std::unique_ptr<CoverageBackend> backend;
  CrashDumpPlan crash_dump;
  std::optional<ReferenceOracle> oracle;
  std::chrono::milliseconds timeout{0};
  unsigned jobs = 0;
};

Plan plan_collection(const CollectRequest& r, const fs::path& scratch, ProgressReporter& progress) {
  Plan p;
  std::vector<std::string> notes;
  p.tests = list_tests(r, scratch, notes);
  p.backend = select_backend(r, p.tests, notes);
  p.timeout = r.timeout.value_or(kDefaultTestTimeout);
  p.crash_dump = plan_crash_dump({.library = r.crash_dump_library,
                                  .requested = r.crash_handler.value_or(true),
                                  .backend_keeps_killed_tests = p.backend->keeps_coverage_of_killed_tests(),
                                  .executables = test_executables(r, p.tests),
                                  .ld_preload = std::getenv("LD_PRELOAD"),
                                  .asan_options = std::getenv("ASAN_OPTIONS")});
  if (!p.crash_dump.note.empty()) notes.push_back(p.crash_dump.note);
  if (const auto* commands = std::get_if<CommandList>(&r.source); commands && !commands->reference_command.empty()) {
    p.oracle.emplace(commands->reference_command,
                     commands->reference_cache.empty() ? scratch / "reference" : commands->reference_cache, p.timeout);
    notes.push_back("differential oracle: a test passes when it ends and prints on stdout as `" +
                    commands->reference_command + "` does");
  }
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = r.jobs.value_or(0);
  p.jobs = static_cast<unsigned>(std::min<std::size_t>(jobs ? jobs : hardware, p.tests.size()));
  notes.push_back(fmt::format("{} tests, {} in parallel, {} coverage: {}", p.tests.size(), p.jobs,
                              coverage_kind_name(p.backend->kind()), p.backend->description()));
  for (const auto& n : notes) progress.note(n);
  return p;
}

// The run of a planned collection: workers take the tests in listing order, each test's
// outcome and coverage go into its record, and the records into the spectrum builder.
class PerTestRun {
 public:
  PerTestRun(const CollectRequest& request, const Plan& plan, const fs::path& scratch, const PathFilter& filter,
             ProgressReporter& progress)
      : r_(request), p_(plan), scratch_(scratch), progress_(progress), table_(filter), records_(plan.tests.size()),
        ended_(plan.tests.size(), 0) {
    streaming_ = p_.backend->add_known_elements(builder_);
  }

  // Runs every test on the plan's workers; rethrows the first error of any of them.
  void run_all();
  // The spectrum (origin: the filter's source root) and the stats and warnings of the run.
  CollectResult finish(const PathFilter& filter);

 private:
  void work();
  void run_one(std::size_t i);
  ProcessSpec spec_of(const TestCommand& t, const fs::path& dir, const fs::path& report) const;
  void judge(std::size_t i, const ProcessResult& run, const ProcessSpec& spec, const ReferenceResult& reference,
             const fs::path& report);
  bool read_coverage(std::size_t i, const fs::path& dir);
  void add_ended(std::size_t i);
  void add_test(std::size_t i, std::span<const std::uint32_t> covered);
  void count(CollectResult& result) const;
  void add_all_tests();
  fs::path report_of(const TestCommand& t, const fs::path& dir);
  void note_report_format(const TestCommand& t, const ProcessResult& run, const fs::path& report);

  const CollectRequest& r_;
  const Plan& p_;
  const fs::path& scratch_;
  ProgressReporter& progress_;
  ElementTable table_;
  std::vector<TestRecord> records_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
  // Elements known up front (runtime): tests go into the builder in listing order as soon
  // as every test before them ended, and their element lists are dropped.
  SpectrumBuilder builder_;
  bool streaming_ = false;
  std::mutex builder_mutex_;
  std::vector<char> ended_;
  std::size_t in_builder_ = 0;
  std::map<std::string, std::uint32_t> extrinsic_ids_;  // `rank=K` elements, added when first met
  // GoogleTest programs found to predate JSON reports (< 1.8.1): their tests write XML.
  std::mutex formats_mutex_;
  std::set<std::string> xml_only_;
};

// The report a test writes: JSON, or XML for a GoogleTest known to have no JSON.
fs::path PerTestRun::report_of(const TestCommand& t, const fs::path& dir) {
  std::lock_guard lock(formats_mutex_);
  return dir / (xml_only_.contains(t.argv.front()) ? "gtest.xml" : "gtest.json");
}

// A GoogleTest older than 1.8.1 warns that it does not know the JSON format and writes no
// report; that test is judged from its console lines and the program's later tests write
// XML (every version since 1.6 does).
void PerTestRun::note_report_format(const TestCommand& t, const ProcessResult& run, const fs::path& report) {
  if (!t.gtest || report.extension() != ".json" || !gtest_rejected_output_format(run.out)) return;
  std::lock_guard lock(formats_mutex_);
  if (xml_only_.insert(t.argv.front()).second)
    progress_.note(fmt::format("{}: its GoogleTest predates JSON reports (older than 1.8.1); reading its XML reports",
                               printable(t.argv.front())));
}

void PerTestRun::add_test(std::size_t i, std::span<const std::uint32_t> covered) {
  TestRecord& r = records_[i];
  if (!r.outcome.in_spectrum()) return;
  if (!r.extrinsic.empty()) {
    std::vector<std::uint32_t> with(covered.begin(), covered.end());
    for (const auto& label : r.extrinsic) {
      auto it = extrinsic_ids_.find(label);
      if (it == extrinsic_ids_.end()) it = extrinsic_ids_.emplace(label, builder_.add_extrinsic(label)).first;
      with.push_back(it->second);
    }
    r.covered = std::move(with);
    covered = r.covered;
  }
  const std::string& name = p_.tests[i].name;
  TestCase test = r.outcome.failed() ? TestCase::fail(name, r.outcome.status()) : TestCase::pass(name);
  test.runtime_ns = static_cast<std::uint64_t>(r.runtime.count());
  test.message = std::move(r.outcome.message);
  builder_.add_test(std::move(test), covered);
  std::vector<std::uint32_t>().swap(r.covered);
}

ProcessSpec PerTestRun::spec_of(const TestCommand& t, const fs::path& dir, const fs::path& report) const {
  ProcessSpec spec;
  spec.argv = t.argv;
  if (t.gtest) {
    spec.argv.push_back((report.extension() == ".xml" ? "--gtest_output=xml:" : "--gtest_output=json:") +
                        report.string());
    spec.env_unset = kSingleGtestEnvUnset;
  }
  spec.cwd = t.cwd;
  spec.env_set = p_.backend->environment(dir, t.name);
  spec.env_set.insert(spec.env_set.end(), p_.crash_dump.environment.begin(), p_.crash_dump.environment.end());
  spec.env_set.insert(spec.env_set.end(), t.env.begin(), t.env.end());
  spec.timeout = t.timeout.count() > 0 ? t.timeout : p_.timeout;
  spec.kill_grace = r_.kill_grace;
  if (p_.oracle) {
    spec.merge_stderr = false;  // the oracle compares stdout alone, all of it
    spec.stdout_limit = SIZE_MAX;
  }
  return spec;
}

void PerTestRun::judge(std::size_t i, const ProcessResult& run, const ProcessSpec& spec,
                       const ReferenceResult& reference, const fs::path& report) {
  const TestCommand& t = p_.tests[i];
  TestRecord& record = records_[i];
  record.outcome = judge_outcome(t, run, spec.timeout, t.gtest ? report : fs::path());
  // Crashes and time-outs fail as always; otherwise the reference decides.
  if (p_.oracle && run.end == ProcessEnd::exited && record.outcome.kind != TestOutcome::Kind::crashed) {
    const auto why = ReferenceOracle::difference(reference, run);
    record.outcome = why ? TestOutcome{TestOutcome::Kind::failed, *why} : TestOutcome{TestOutcome::Kind::passed, {}};
  }
  record.runtime = run.wall;
}

// False when the run was stopped meanwhile.
bool PerTestRun::read_coverage(std::size_t i, const fs::path& dir) {
  TestRecord& record = records_[i];
  if (!record.outcome.in_spectrum()) return true;
  const std::string& name = p_.tests[i].name;
  if (streaming_) {
    if (auto covered = p_.backend->read_elements(dir, name, record.extrinsic)) {
      record.has_coverage = true;
      record.covered = std::move(*covered);
    }
  } else if (const auto coverage = p_.backend->read(dir, name, &stop_)) {
    if (stop_.load()) return false;
    record.has_coverage = true;
    record.covered = table_.add(*coverage);
  }
  return !stop_.load();
}

void PerTestRun::add_ended(std::size_t i) {
  std::lock_guard lock(builder_mutex_);
  ended_[i] = 1;
  for (; in_builder_ < p_.tests.size() && ended_[in_builder_]; ++in_builder_)
    add_test(in_builder_, records_[in_builder_].covered);
}

void PerTestRun::run_one(std::size_t i) {
  const TestCommand& t = p_.tests[i];
  const fs::path dir = scratch_ / ("t" + std::to_string(i));
  fs::create_directories(dir);
  const fs::path report = report_of(t, dir);
  const ProcessSpec spec = spec_of(t, dir, report);
  ReferenceResult reference;
  if (p_.oracle) {
    reference = p_.oracle->expected(t, &stop_);
    if (stop_.load()) return;
  }
  const ProcessResult run = run_process(spec, &stop_);
  if (run.end == ProcessEnd::cancelled) return;
  note_report_format(t, run, report);
  judge(i, run, spec, reference, report);
  if (!read_coverage(i, dir)) return;
  if (!r_.keep_work) io::remove_tree_quietly(dir);
  if (streaming_) add_ended(i);
  progress_.test_done(records_[i].outcome.failed());
}

void PerTestRun::work() {
  try {
    while (!stop_.load()) {
      const std::size_t i = next_++;
      if (i >= p_.tests.size()) break;
      run_one(i);
    }
  } catch (...) {
    std::lock_guard lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
    stop_ = true;
  }
}

void PerTestRun::run_all() {
  progress_.start(p_.tests.size());
  {
    std::vector<std::jthread> workers;
    std::jthread watcher = detail::watch_interrupt(r_.interrupt, stop_);
    for (unsigned w = 0; w < p_.jobs; ++w) workers.emplace_back([this] { work(); });
    for (auto& w : workers) w.join();
    if (watcher.joinable()) {
      watcher.request_stop();
      watcher.join();
    }
  }
  progress_.finish();
  if (error_) std::rethrow_exception(error_);
  if (r_.interrupt && r_.interrupt->load()) throw Error("interrupted; no spectrum written");
}

// The counts, and warnings for the tests without coverage and those GoogleTest did not
// run. Skipped and not-run tests stay out of the spectrum.
void PerTestRun::count(CollectResult& result) const {
  CollectStats& s = result.stats;
  std::vector<std::string> failing_without, passing_without, not_run;
  std::size_t unreported = 0;  // GoogleTest tests that left no result at all
  for (std::size_t i = 0; i < p_.tests.size(); ++i) {
    const TestRecord& r = records_[i];
    if (!r.outcome.in_spectrum()) {
      ++s.skipped;
      if (r.outcome.kind == TestOutcome::Kind::not_run) not_run.push_back(p_.tests[i].name);
      continue;
    }
    ++s.tests;
    if (r.outcome.failed()) ++s.failing;
    if (r.outcome.kind == TestOutcome::Kind::crashed) ++s.crashed;
    if (r.outcome.kind == TestOutcome::Kind::timed_out) ++s.timed_out;
    if (r.outcome.unreported) ++unreported;
    if (!r.has_coverage) {
      ++s.no_coverage;
      (r.outcome.failed() ? failing_without : passing_without).push_back(p_.tests[i].name);
    }
  }
  if (s.tests > 1 && unreported == s.tests) {
    std::size_t first = 0;
    while (!records_[first].outcome.in_spectrum()) ++first;
    const std::string& end = records_[first].outcome.message;
    throw Error(fmt::format("none of the {} GoogleTest tests reported a result: no run wrote a report "
                            "(--gtest_output) or printed GoogleTest's [ RUN ]/[ OK ]/[ FAILED ] lines for its test; is "
                            "{} a GoogleTest program whose main() calls RUN_ALL_TESTS() and whose output reaches "
                            "stdout? The first, {}: {}",
                            s.tests, printable(p_.tests[first].argv.front()), printable(p_.tests[first].name),
                            printable(end.substr(0, end.find('\n')))));
  }
  const CoverageBackend& backend = *p_.backend;
  // Every test killed (a library that aborts while it loads, say): the binaries are fine,
  // the tests are not; say so, with the first one's end, rather than doubt the build.
  const bool none_covered = s.tests > 0 && s.no_coverage == s.tests && !r_.outcomes_only;
  if (none_covered && s.crashed + s.timed_out == s.tests && !backend.keeps_coverage_of_killed_tests()) {
    std::size_t first = 0;
    while (!records_[first].outcome.in_spectrum()) ++first;
    const std::string& end = records_[first].outcome.message;
    throw Error(fmt::format("none of the {} tests wrote coverage data: every one was killed ({} crashed, {} timed out){}; "
                            "the first, {}: {}",
                            s.tests, s.crashed, s.timed_out,
                            p_.crash_dump.active ? " and the crash handler could not write it"
                                                 : ", and a killed process writes none with this backend",
                            printable(p_.tests[first].name), printable(end.substr(0, end.find('\n')))));
  }
  if (none_covered)
    throw Error(backend.kind() == CoverageKind::runtime
                    ? fmt::format("none of the {} tests wrote a runtime snapshot: build the programs they run from the "
                                  "`dlfl instrument` tree ($(dlfl config --cflags)) and link them with libdlfl_rt "
                                  "($(dlfl config --libs))",
                                  s.tests)
                    : fmt::format("none of the {} tests wrote coverage data: are the binaries built with {} coverage? "
                                  "(--coverage for gcov, -fprofile-instr-generate -fcoverage-mapping for llvm)",
                                  s.tests, coverage_kind_name(backend.kind())));
  if (!failing_without.empty())
    result.warnings.push_back(fmt::format(
        "{} failing test{} without coverage{}: {}", failing_without.size(), failing_without.size() == 1 ? "" : "s",
        backend.keeps_coverage_of_killed_tests() ? ""
        : p_.crash_dump.active
            ? " (the crash handler could not write it: a statically linked program, or one that installs its own "
              "signal handlers)"
            : " (a process killed by a signal or the time limit writes none with this backend)",
        name_list(failing_without)));
  if (!passing_without.empty())
    result.warnings.push_back(fmt::format("{} passing test{} without coverage: {}", passing_without.size(),
                                          passing_without.size() == 1 ? "" : "s", name_list(passing_without)));
  if (!not_run.empty())
    result.warnings.push_back(
        fmt::format("GoogleTest ran no test for {} listed name(s), left out: {}", not_run.size(), name_list(not_run)));
}

// Without elements known up front: the table's lines become the elements, in order, and
// every test goes in with its provisional ids mapped to them.
void PerTestRun::add_all_tests() {
  if (table_.size() == 0 && !r_.outcomes_only)
    throw Error(fmt::format("no instrumented line is left after the source root and the excludes (the coverage "
                            "data named {} files): check --source-root and --exclude",
                            table_.paths_seen()));
  const std::vector<std::uint32_t> final_id = table_.emit(builder_);
  std::vector<std::uint32_t> ids;
  for (std::size_t i = 0; i < p_.tests.size(); ++i) {
    ids.clear();
    for (const auto provisional : records_[i].covered) ids.push_back(final_id[provisional]);
    add_test(i, ids);
  }
}

CollectResult PerTestRun::finish(const PathFilter& filter) {
  CollectResult result;
  count(result);
  if (!streaming_) add_all_tests();
  result.spectrum = std::move(builder_).finish();
  result.spectrum.set_origin({filter.source_root().string(), 0});
  CollectStats& s = result.stats;
  s.listed = p_.tests.size();
  s.elements = result.spectrum.element_count();
  s.backend = p_.backend->kind();
  s.backend_description = p_.backend->description();
  s.jobs = p_.jobs;
  return result;
}

}  // namespace

CollectResult collect_per_test(const CollectRequest& request, ProgressReporter& progress) {
  const auto started = Clock::now();
  const PathFilter filter(request.paths);  // a bad source root fails before anything runs
  // One subdirectory per running test; removed at the end.
  const io::ScratchDirectory scratch(request.work_dir, "dlfl-collect", request.keep_work);
  const Plan plan = plan_collection(request, scratch.path(), progress);
  PerTestRun run(request, plan, scratch.path(), filter, progress);
  run.run_all();
  CollectResult result = run.finish(filter);
  result.stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace dlfl::collect
