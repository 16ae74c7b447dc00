// collect(): list the tests, run each alone with its own coverage directory on N worker
// threads, read each test's coverage right after it ends, and build the spectrum.
#include "dlfl/collect/collector.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <thread>

#include "backend_selection.h"
#include "dlfl/collect/crash_dump.h"
#include "dlfl/collect/reference_oracle.h"
#include "dlfl/collect/test_outcome.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "element_table.h"
#include "scratch_directory.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Variables that keep GoogleTest to the one test we ask for and the report we read.
const std::vector<std::string> kGtestEnvUnset = {"GTEST_FILTER", "GTEST_OUTPUT", "GTEST_SHARD_INDEX",
                                                 "GTEST_TOTAL_SHARDS", "GTEST_REPEAT", "GTEST_SHUFFLE",
                                                 "GTEST_BREAK_ON_FAILURE", "GTEST_FAIL_FAST"};

struct TestRecord {
  TestOutcome outcome;
  std::chrono::nanoseconds runtime{0};
  bool has_coverage = false;
  std::vector<std::uint32_t> covered;  // provisional element ids
  std::vector<std::string> extrinsic;  // labels of extrinsic elements covered (MPI ranks)
};

std::vector<TestCommand> list_tests(const CollectOptions& o, const fs::path& scratch, std::vector<std::string>& notes) {
  // Listing runs the instrumented binaries; send their coverage into the scratch
  // directory instead of the build tree (where libgcov would merge into the user's .gcda).
  const fs::path listing = scratch / "listing";
  fs::create_directories(listing);
  const std::vector<std::string> env = {"GCOV_PREFIX=" + listing.string(), "GCOV_PREFIX_STRIP=0",
                                        "LLVM_PROFILE_FILE=" + (listing / "%p.profraw").string()};
  std::vector<TestCommand> tests;
  switch (o.source) {
    case TestSourceKind::gtest:
      tests = list_gtest_tests(o.gtest_binary, env);
      break;
    case TestSourceKind::ctest: {
      std::vector<std::string> skipped;
      tests = list_ctest_tests(o.ctest_dir, env, &skipped);
      if (!skipped.empty())
        notes.push_back(fmt::format("{} CTest tests are disabled or have no command and are left out", skipped.size()));
      break;
    }
    case TestSourceKind::command_template:
      tests = make_template_commands(read_test_list(o.test_list), o.command_template);
      break;
  }
  if (!o.filter.empty()) {
    std::erase_if(tests, [&](const TestCommand& t) { return !gtest_filter_matches(o.filter, t.name); });
    if (tests.empty()) throw Error(fmt::format("the filter '{}' keeps no test", o.filter));
  }
  if (tests.empty()) throw Error("the test source lists no test");
  if (o.shard) {
    const std::size_t listed = tests.size();
    std::size_t position = 0;
    std::erase_if(tests, [&](const TestCommand& t) {
      return o.source == TestSourceKind::gtest ? !gtest_shard_holds(*o.shard, position++)
                                               : !name_shard_holds(*o.shard, t.name);
    });
    if (tests.empty())
      throw Error(fmt::format("shard {}/{} holds none of the {} tests", o.shard->index, o.shard->count, listed));
    notes.push_back(fmt::format("shard {}/{}: {} of the {} tests", o.shard->index, o.shard->count, tests.size(), listed));
  }
  return tests;
}

// Up to `limit` names, then "and N more".
std::string name_list(const std::vector<std::string>& names, std::size_t limit = 10) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > limit) out += fmt::format(" and {} more", names.size() - limit);
  return out;
}

}  // namespace

CollectResult collect(const CollectOptions& o, ProgressReporter& progress) {
  const auto started = Clock::now();
  const PathFilter filter(o.paths);  // a bad source root fails before anything runs
  // One subdirectory per running test; removed at the end.
  const ScratchDirectory scratch(o.work_dir, "dlfl-collect", o.keep_work);
  CollectResult result;
  std::vector<std::string> notes;
  const std::vector<TestCommand> tests = list_tests(o, scratch.path(), notes);
  const auto backend = select_backend(o, tests, notes);
  const CrashDumpPlan crash_dump = plan_crash_dump({.library = o.crash_dump_library,
                                                    .requested = o.crash_handler,
                                                    .backend_keeps_killed_tests = backend->keeps_coverage_of_killed_tests(),
                                                    .executables = test_executables(o, tests),
                                                    .ld_preload = std::getenv("LD_PRELOAD"),
                                                    .asan_options = std::getenv("ASAN_OPTIONS")});
  if (!crash_dump.note.empty()) notes.push_back(crash_dump.note);
  std::optional<ReferenceOracle> oracle;
  if (!o.reference_command.empty()) {
    if (o.source != TestSourceKind::command_template)
      throw Error("a reference command judges --tests/--cmd suites; GoogleTest and CTest tests judge themselves");
    oracle.emplace(o.reference_command, o.reference_cache.empty() ? scratch.path() / "reference" : o.reference_cache,
                   o.timeout);
    notes.push_back("differential oracle: a test passes when it ends and prints on stdout as `" + o.reference_command +
                    "` does");
  }
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = static_cast<unsigned>(std::min<std::size_t>(o.jobs ? o.jobs : hardware, tests.size()));
  notes.push_back(fmt::format("{} tests, {} in parallel, {} coverage: {}", tests.size(), jobs,
                              coverage_kind_name(backend->kind()), backend->description()));
  for (const auto& n : notes) progress.note(n);

  ElementTable table(filter);
  std::vector<TestRecord> records(tests.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::exception_ptr error;

  // Elements known up front (runtime): tests go into the builder in listing order as soon
  // as every test before them ended, and their element lists are dropped.
  SpectrumBuilder builder;
  const bool streaming = backend->add_known_elements(builder);
  std::mutex builder_mutex;
  std::vector<char> ended(tests.size(), 0);
  std::size_t in_builder = 0;
  std::map<std::string, std::uint32_t> extrinsic_ids;  // `rank=K` elements, added when first met
  auto add_test = [&](std::size_t i, std::span<const std::uint32_t> covered) {
    TestRecord& r = records[i];
    if (!r.outcome.in_spectrum()) return;
    if (!r.extrinsic.empty()) {
      std::vector<std::uint32_t> with(covered.begin(), covered.end());
      for (const auto& label : r.extrinsic) {
        auto it = extrinsic_ids.find(label);
        if (it == extrinsic_ids.end()) it = extrinsic_ids.emplace(label, builder.add_extrinsic(label)).first;
        with.push_back(it->second);
      }
      r.covered = std::move(with);
      covered = r.covered;
    }
    TestCase test = r.outcome.failed() ? TestCase::fail(tests[i].name, r.outcome.status())
                                       : TestCase::pass(tests[i].name);
    test.runtime_ns = static_cast<std::uint64_t>(r.runtime.count());
    test.message = std::move(r.outcome.message);
    builder.add_test(std::move(test), covered);
    std::vector<std::uint32_t>().swap(r.covered);
  };

  auto run_one = [&](std::size_t i) {
    const TestCommand& t = tests[i];
    const fs::path dir = scratch.path() / ("t" + std::to_string(i));
    fs::create_directories(dir);
    ProcessSpec spec;
    spec.argv = t.argv;
    const fs::path report = dir / "gtest.json";
    if (t.gtest) {
      spec.argv.push_back("--gtest_output=json:" + report.string());
      spec.env_unset = kGtestEnvUnset;
    }
    spec.cwd = t.cwd;
    spec.env_set = backend->environment(dir, t.name);
    spec.env_set.insert(spec.env_set.end(), crash_dump.environment.begin(), crash_dump.environment.end());
    spec.env_set.insert(spec.env_set.end(), t.env.begin(), t.env.end());
    spec.timeout = t.timeout.count() > 0 ? t.timeout : o.timeout;
    spec.kill_grace = o.kill_grace;
    ReferenceResult reference;
    if (oracle) {
      reference = oracle->expected(t, &stop);
      if (stop.load()) return;
      spec.merge_stderr = false;  // the oracle compares stdout alone, all of it
      spec.stdout_limit = SIZE_MAX;
    }
    const ProcessResult run = run_process(spec, &stop);
    if (run.end == ProcessEnd::cancelled) return;
    TestRecord& record = records[i];
    record.outcome = judge_outcome(t, run, spec.timeout, t.gtest ? report : fs::path());
    // Crashes and time-outs fail as always; otherwise the reference decides.
    if (oracle && run.end == ProcessEnd::exited && record.outcome.kind != TestOutcome::Kind::crashed) {
      const auto why = ReferenceOracle::difference(reference, run);
      record.outcome = why ? TestOutcome{TestOutcome::Kind::failed, *why} : TestOutcome{TestOutcome::Kind::passed, {}};
    }
    record.runtime = run.wall;
    if (record.outcome.in_spectrum()) {
      if (streaming) {
        if (auto covered = backend->read_elements(dir, t.name, record.extrinsic)) {
          record.has_coverage = true;
          record.covered = std::move(*covered);
        }
      } else if (const auto coverage = backend->read(dir, t.name, &stop)) {
        if (stop.load()) return;
        record.has_coverage = true;
        record.covered = table.add(*coverage);
      }
      if (stop.load()) return;
    }
    if (!o.keep_work) {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
    if (streaming) {
      std::lock_guard lock(builder_mutex);
      ended[i] = 1;
      for (; in_builder < tests.size() && ended[in_builder]; ++in_builder) add_test(in_builder, records[in_builder].covered);
    }
    progress.test_done(record.outcome.failed());
  };

  progress.start(tests.size());
  {
    std::vector<std::jthread> workers;
    // Forwards an asynchronous interrupt (SIGINT) to the workers' stop flag, which
    // run_process polls, so running tests are killed within ~100 ms.
    std::jthread watcher;
    if (o.interrupt)
      watcher = std::jthread([&](std::stop_token token) {
        while (!token.stop_requested() && !stop.load()) {
          if (o.interrupt->load()) stop = true;
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
      });
    for (unsigned w = 0; w < jobs; ++w)
      workers.emplace_back([&] {
        try {
          while (!stop.load()) {
            const std::size_t i = next++;
            if (i >= tests.size()) break;
            run_one(i);
          }
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
          stop = true;
        }
      });
    for (auto& w : workers) w.join();
    if (watcher.joinable()) {
      watcher.request_stop();
      watcher.join();
    }
  }
  progress.finish();
  if (error) std::rethrow_exception(error);
  if (o.interrupt && o.interrupt->load()) throw Error("interrupted; no spectrum written");

  // Assemble in listing order; skipped and not-run tests stay out.
  CollectStats& s = result.stats;
  std::vector<std::string> failing_without, passing_without, not_run;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const TestRecord& r = records[i];
    if (!r.outcome.in_spectrum()) {
      ++s.skipped;
      if (r.outcome.kind == TestOutcome::Kind::not_run) not_run.push_back(tests[i].name);
      continue;
    }
    ++s.tests;
    if (r.outcome.failed()) ++s.failing;
    if (r.outcome.kind == TestOutcome::Kind::crashed) ++s.crashed;
    if (r.outcome.kind == TestOutcome::Kind::timed_out) ++s.timed_out;
    if (!r.has_coverage) {
      ++s.no_coverage;
      (r.outcome.failed() ? failing_without : passing_without).push_back(tests[i].name);
    }
  }
  if (s.tests > 0 && s.no_coverage == s.tests)
    throw Error(backend->kind() == CoverageKind::runtime
                    ? fmt::format("none of the {} tests wrote a runtime snapshot: build the programs they run from the "
                                  "`dlfl instrument` tree ($(dlfl config --cflags)) and link them with libdlfl_rt "
                                  "($(dlfl config --libs))",
                                  s.tests)
                    : fmt::format("none of the {} tests wrote coverage data: are the binaries built with {} coverage? "
                                  "(--coverage for gcov, -fprofile-instr-generate -fcoverage-mapping for llvm)",
                                  s.tests, coverage_kind_name(backend->kind())));
  if (!failing_without.empty())
    result.warnings.push_back(fmt::format(
        "{} failing test{} without coverage{}: {}", failing_without.size(), failing_without.size() == 1 ? "" : "s",
        backend->keeps_coverage_of_killed_tests() ? ""
        : crash_dump.active
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

  if (!streaming) {
    if (table.size() == 0)
      throw Error(fmt::format("no instrumented line is left after the source root and the excludes (the coverage "
                              "data named {} files): check --source-root and --exclude",
                              table.paths_seen()));
    const std::vector<std::uint32_t> final_id = table.emit(builder);
    std::vector<std::uint32_t> ids;
    for (std::size_t i = 0; i < tests.size(); ++i) {
      ids.clear();
      for (const auto provisional : records[i].covered) ids.push_back(final_id[provisional]);
      add_test(i, ids);
    }
  }
  result.spectrum = std::move(builder).finish();
  result.spectrum.set_origin({filter.source_root().string(), 0});
  s.listed = tests.size();
  s.elements = result.spectrum.element_count();
  s.backend = backend->kind();
  s.backend_description = backend->description();
  s.jobs = jobs;
  s.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace dlfl::collect
