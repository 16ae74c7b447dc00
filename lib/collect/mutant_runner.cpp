// run_mutants(): baseline runs of the original program (twice, to find flaky tests and
// time limits), then each mutant's tests, all through the journal, then the kill matrix.
// With pytest batches, batched runs first; whatever they cannot judge runs one test a
// process after them.
#include "dlfl/collect/mutant_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <map>
#include <set>
#include <thread>

#include "collectors.h"
#include "dlfl/collect/process.h"
#include "dlfl/collect/pytest_batch.h"
#include "dlfl/collect/test_outcome.h"
#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "dlfl/files/tree_removal.h"
#include "dlfl/mutation_scores.h"
#include "interrupt_watch.h"
#include "kill_journal.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using detail::JournalRecord;
using Kind = TestOutcome::Kind;

// Journal run numbers (kill_journal.h).
constexpr std::uint32_t kMutantRun = 0, kBatchMutantRun = 3;
constexpr std::uint32_t kBaselineRuns[2] = {1, 2}, kBatchBaselineRuns[2] = {4, 5};
// A batch that crashed inside a case runs the rest again batched at most this often; then
// the rest runs one a process, which costs no more than the cases' own runs.
constexpr std::size_t kMaxBatchCrashes = 8;

struct Job {
  std::uint32_t mutant = 0;  // 0: baseline
  std::uint32_t run = 0;
  std::uint32_t test = 0;              // spectrum test id (a job of one test)
  std::vector<std::uint32_t> batch;    // or these, in one pytest process
  std::chrono::milliseconds timeout{0};
};

// What a test does on the original program, from its two baseline runs.
struct Baseline {
  Kind kind = Kind::passed;
  std::uint64_t message = 0;
  bool message_stable = true;  // both runs failed with the same message
  std::chrono::milliseconds timeout{0};
};

// The cases of `names` that pytest's JUnit report at `path` gives; none without a report
// or with one that is not pytest's or is over kMaxJunitReportBytes.
std::map<std::string, PytestCaseResult> reported_cases(const fs::path& path, const std::vector<std::string>& names) {
  try {
    return parse_pytest_junit(io::read_file_bytes(path, kMaxJunitReportBytes, "JUnit report"), names, path.string());
  } catch (const Error&) {
    return {};
  }
}

class MutantRun {
 public:
  explicit MutantRun(const MutantRunRequest& r)
      : r_(r),
        s_(*r.spectrum),
        journal_(r.journal, r.schemata_digest),
        batch_text_(r.pytest_batch > 0 ? batch_command_text(r.pytest_template) : std::string()) {
    for (const TestCommand& t : r.tests) commands_.emplace(t.name, &t);
    for (const JournalRecord& rec : journal_.recorded()) remember(rec);
    reused_ = journal_.recorded().size();
  }

  MutantRunResult run();

 private:
  void remember(const JournalRecord& rec) {
    std::lock_guard lock(results_mutex_);
    if (rec.test.empty())
      batch_startup_ns_ = std::max(batch_startup_ns_, rec.wall_ns);
    else
      results_[{rec.mutant, rec.run, rec.test}] = rec;
  }
  const JournalRecord* result(std::uint32_t mutant, std::uint32_t run, std::uint32_t test) const {
    const auto it = results_.find({mutant, run, s_.tests()[test].name});
    return it == results_.end() ? nullptr : &it->second;
  }
  const TestCommand& command(std::uint32_t test) const {
    const auto it = commands_.find(s_.tests()[test].name);
    if (it == commands_.end())
      throw Error("the schemata build has no test named '" + s_.tests()[test].name + "' (a test of the spectrum)");
    return *it->second;
  }
  std::vector<std::vector<std::uint32_t>> tests_per_mutant() const;
  void run_jobs(const std::vector<Job>& jobs);
  void run_job(const Job& job, const fs::path& dir);
  void run_batch(const Job& job, const fs::path& dir);
  std::vector<Job> batch_jobs(std::uint32_t mutant, std::uint32_t run, const std::vector<std::uint32_t>& tests,
                              const std::map<std::uint32_t, Baseline>* baselines) const;
  // The tests whose two runs (run_a, run_b) judge them; why each other test is not.
  std::map<std::uint32_t, Baseline> judge_baselines(const std::set<std::uint32_t>& tests, std::uint32_t run_a,
                                                    std::uint32_t run_b, std::map<std::uint32_t, std::string>& why_not);
  bool killed(const Baseline& b, const JournalRecord& rec) const;
  Spectrum kill_matrix(const std::vector<std::vector<std::uint32_t>>& per_mutant,
                       const std::map<std::uint32_t, Baseline>& alone, const std::map<std::uint32_t, Baseline>& batched,
                       MutantRunResult& out) const;

  const MutantRunRequest& r_;
  const Spectrum& s_;
  detail::KillJournal journal_;
  std::map<std::string, const TestCommand*> commands_;
  std::string batch_text_;  // the /bin/sh command line of a pytest batch (batch_command_text)
  std::mutex results_mutex_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::string>, JournalRecord> results_;
  std::uint64_t batch_startup_ns_ = 0;  // the slowest baseline batch's time outside its cases
  std::size_t reused_ = 0;
  std::atomic<std::size_t> runs_{0};
  std::atomic<std::size_t> batches_{0};
  std::atomic<bool> stop_{false};
};

// Per mutant, the spectrum tests that can see it: every failing test, and the passing
// tests that ran its line.
std::vector<std::vector<std::uint32_t>> MutantRun::tests_per_mutant() const {
  SpectrumBuilder b;
  for (const MutantToRun& m : r_.mutants) b.add_element(m.file, m.line);
  const Spectrum places = std::move(b).finish();
  const auto lines = lines_of_mutants(s_, places);
  const std::vector<std::uint32_t> failing = s_.failing_test_ids();
  std::vector<std::vector<std::uint32_t>> out(r_.mutants.size());
  for (std::size_t m = 0; m < out.size(); ++m) {
    std::set<std::uint32_t> tests(failing.begin(), failing.end());
    for (const std::uint32_t e : lines[m])
      for (const std::uint32_t t : s_.coverage().tests_of(e)) tests.insert(t);
    out[m].assign(tests.begin(), tests.end());
  }
  return out;
}

void MutantRun::run_job(const Job& job, const fs::path& dir) {
  if (!job.batch.empty()) return run_batch(job, dir);
  const TestCommand& t = command(job.test);
  fs::create_directories(dir);
  const fs::path report = dir / "gtest.json";
  std::error_code ec;
  fs::remove(report, ec);
  ProcessSpec spec;
  spec.argv = t.argv;
  if (t.gtest) {
    spec.argv.push_back("--gtest_output=json:" + report.string());
    spec.env_unset = kSingleGtestEnvUnset;
  }
  spec.cwd = t.cwd;
  spec.env_set = t.env;
  if (job.mutant > 0)
    spec.env_set.push_back(r_.switch_variable + "=" + std::to_string(job.mutant));
  else
    spec.env_unset.push_back(r_.switch_variable);
  spec.timeout = job.timeout;
  spec.kill_grace = r_.kill_grace;
  const ProcessResult run = run_process(spec, &stop_);
  if (run.end == ProcessEnd::cancelled) return;
  const TestOutcome outcome = judge_outcome(t, run, spec.timeout, t.gtest ? report : fs::path());
  JournalRecord rec{job.mutant, job.run, t.name, outcome.kind,
                    outcome.failed() ? detail::message_hash(outcome.message) : 0,
                    static_cast<std::uint64_t>(run.wall.count())};
  journal_.append(rec);
  remember(rec);
  ++runs_;
  if (r_.progress) r_.progress->test_done(outcome.failed());
}

void MutantRun::run_jobs(const std::vector<Job>& jobs) {
  if (jobs.empty() || stop_.load()) return;
  if (r_.progress) r_.progress->start(jobs.size());
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const auto workers = static_cast<unsigned>(std::min<std::size_t>(r_.jobs ? r_.jobs : hardware, jobs.size()));
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  {
    std::vector<std::jthread> threads;
    std::jthread watcher = detail::watch_interrupt(r_.interrupt, stop_);
    for (unsigned w = 0; w < workers; ++w)
      threads.emplace_back([&, w] {
        try {
          for (std::size_t i = next++; i < jobs.size() && !stop_.load(); i = next++)
            run_job(jobs[i], r_.scratch / ("w" + std::to_string(w)));
        } catch (...) {
          std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
          stop_ = true;
        }
      });
    threads.clear();  // joins the workers
    if (watcher.joinable()) watcher.request_stop();
  }
  if (r_.progress) r_.progress->finish();
  if (error) std::rethrow_exception(error);
}

// A batch of tests in one pytest process; each reported case is journalled as its own
// run, a baseline batch also with its time outside the cases. When a mutant's batch
// crashes or times out inside a case, that case crashed or timed out, and the cases the
// output says passed before it passed; after a crash the others run again in a new
// batch. Cases a batch leaves unreported (a time-out, an end without a report) are
// journalled as not run, so that a rerun does not try the batch again, and then run one
// a process.
void MutantRun::run_batch(const Job& job, const fs::path& dir) {
  fs::create_directories(dir);
  const fs::path report = dir / "junit.xml";
  std::vector<std::string> names;
  for (const std::uint32_t t : job.batch) names.push_back(s_.tests()[t].name);
  const auto journal = [&](JournalRecord rec) {
    journal_.append(rec);
    remember(rec);
  };
  const char* inherited = std::getenv("PYTEST_ADDOPTS");
  std::size_t crashes = 0;
  for (;;) {
    std::error_code ec;
    fs::remove(report, ec);
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", batch_text_, "sh"};
    spec.argv.insert(spec.argv.end(), names.begin(), names.end());
    spec.env_set.push_back("PYTEST_ADDOPTS=" + batch_addopts(inherited ? inherited : "", report.string()));
    if (job.mutant > 0)
      spec.env_set.push_back(r_.switch_variable + "=" + std::to_string(job.mutant));
    else
      spec.env_unset.push_back(r_.switch_variable);
    spec.merge_stderr = false;  // stdout's last line names the case a crash ended in
    spec.timeout = job.timeout;
    spec.kill_grace = r_.kill_grace;
    const ProcessResult run = run_process(spec, &stop_);
    if (run.end == ProcessEnd::cancelled) return;
    ++batches_;
    // The shell running pytest reports pytest's death by a signal as an exit status;
    // any end inside a case (an abort, a segfault, os._exit) is that case's crash.
    const bool reported = run.end == ProcessEnd::exited && fs::exists(report, ec);
    if (!reported && job.mutant > 0) {
      if (const auto inside = unfinished_case(run.out, names)) {
        journal({job.mutant, job.run, *inside,
                 run.end == ProcessEnd::timed_out ? Kind::timed_out : Kind::crashed, 0, 0});
        ++runs_;
        std::erase(names, *inside);
        for (const std::string& done : passed_cases(run.out, names)) {
          journal({job.mutant, job.run, done, Kind::passed, 0, 0});
          ++runs_;
          std::erase(names, done);
        }
        // After a crash the rest runs again at once, up to kMaxBatchCrashes times (a
        // mutant that crashes case after case costs a batch a crash); after a time-out,
        // which took the whole batch's time, one a process with their own limits.
        if (run.end != ProcessEnd::timed_out && !names.empty() && ++crashes < kMaxBatchCrashes) continue;
        for (const std::string& name : names) journal({job.mutant, job.run, name, Kind::not_run, 0, 0});
        break;
      }
    }
    const auto cases = run.end == ProcessEnd::exited ? reported_cases(report, names)
                                                      : std::map<std::string, PytestCaseResult>();
    double inside = 0;
    for (const std::string& name : names) {
      const auto it = cases.find(name);
      JournalRecord rec{job.mutant, job.run, name, Kind::not_run, 0, 0};
      if (it != cases.end()) {
        const PytestCaseResult& c = it->second;
        inside += c.seconds;
        rec.kind = c.kind;
        rec.message_hash = c.kind == Kind::failed ? detail::message_hash(c.message) : 0;
        rec.wall_ns = static_cast<std::uint64_t>(c.seconds * 1e9);
        ++runs_;
      }
      journal(rec);
    }
    if (job.mutant == 0) {
      const double outside = std::max(0.0, std::chrono::duration<double>(run.wall).count() - inside);
      journal({0, job.run, "", Kind::passed, 0, static_cast<std::uint64_t>(outside * 1e9)});
    }
    break;
  }
  if (r_.progress) r_.progress->test_done(false);
}

// The batches running `tests` (in spectrum order) without a result of `run` yet. A
// baseline batch may take what its tests could one at a time; a mutant's batch the sum of
// its tests' limits and the slowest baseline batch's start-up, timeout_factor times.
std::vector<Job> MutantRun::batch_jobs(std::uint32_t mutant, std::uint32_t run, const std::vector<std::uint32_t>& tests,
                                       const std::map<std::uint32_t, Baseline>* baselines) const {
  std::vector<Job> jobs;
  for (const std::uint32_t t : tests) {
    if (result(mutant, run, t)) continue;
    if (jobs.empty() || jobs.back().batch.size() >= r_.pytest_batch) {
      jobs.push_back({mutant, run, 0, {}, std::chrono::milliseconds(0)});
      if (baselines)
        jobs.back().timeout = std::chrono::milliseconds(static_cast<std::int64_t>(
            r_.timeout_factor * static_cast<double>(batch_startup_ns_) / 1e6));
    }
    jobs.back().batch.push_back(t);
    jobs.back().timeout += baselines ? baselines->at(t).timeout : r_.baseline_timeout;
  }
  return jobs;
}

std::map<std::uint32_t, Baseline> MutantRun::judge_baselines(const std::set<std::uint32_t>& tests,
                                                             std::uint32_t run_a, std::uint32_t run_b,
                                                             std::map<std::uint32_t, std::string>& why_not) {
  std::map<std::uint32_t, Baseline> baselines;
  for (const std::uint32_t t : tests) {
    const JournalRecord* a = result(0, run_a, t);
    const JournalRecord* b = result(0, run_b, t);
    const TestCase& test = s_.tests()[t];
    const auto failed = [](Kind k) { return k == Kind::failed || k == Kind::crashed || k == Kind::timed_out; };
    std::string why;
    if (!a || !b)
      why = "did not run";
    else if (a->kind != b->kind)
      why = "is flaky on the original program (two runs ended differently)";
    else if (a->kind == Kind::skipped || a->kind == Kind::not_run)
      why = "does not run on the schemata build";
    else if (failed(a->kind) != test.failed())
      why = std::string("does not reproduce its spectrum outcome on the schemata build (") +
            (test.failed() ? "passes" : "fails") + ")";
    if (!why.empty()) {
      why_not[t] = why;
      continue;
    }
    Baseline base;
    base.kind = a->kind;
    base.message = a->message_hash;
    base.message_stable = a->message_hash == b->message_hash;
    const auto slower = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::nanoseconds(std::max(a->wall_ns, b->wall_ns)));
    base.timeout = std::max(r_.min_timeout, std::chrono::milliseconds(static_cast<std::int64_t>(
                                                 static_cast<double>(slower.count()) * r_.timeout_factor)));
    baselines[t] = base;
  }
  return baselines;
}

// A changed verdict, a crash or time-out, or (for a test failing alike in both baseline
// runs) another failure message: the mutant changed what the test sees.
bool MutantRun::killed(const Baseline& b, const JournalRecord& rec) const {
  if (rec.kind == Kind::skipped || rec.kind == Kind::not_run) return false;
  if (rec.kind != b.kind) return true;
  return rec.kind == Kind::failed && b.message_stable && rec.message_hash != b.message;
}

// A run alone is judged against the baselines alone; a batched run against the batched
// baselines (their failure messages come from pytest's report, not the output).
Spectrum MutantRun::kill_matrix(const std::vector<std::vector<std::uint32_t>>& per_mutant,
                                const std::map<std::uint32_t, Baseline>& alone,
                                const std::map<std::uint32_t, Baseline>& batched, MutantRunResult& out) const {
  SpectrumBuilder b;
  for (const MutantToRun& m : r_.mutants)
    b.add_element(m.file, m.line, m.line, m.function, fmt::format("{}:{} {} #{}", m.file, m.line, m.op, m.number));
  const std::set<std::string> left(out.left_out.begin(), out.left_out.end());
  std::vector<std::vector<std::uint32_t>> kills_of_test(s_.test_count());
  for (std::size_t m = 0; m < r_.mutants.size(); ++m) {
    bool any = false;
    const std::uint32_t number = r_.mutants[m].number;
    for (const std::uint32_t t : per_mutant[m]) {
      bool kill = false;
      const auto one = alone.find(t);
      const auto many = batched.find(t);
      if (const JournalRecord* rec = result(number, kMutantRun, t); rec && one != alone.end()) {
        // A test batches judge, run alone after its mutant's batch crashed: alone, its
        // message is the end of pytest's output, whose timings two baseline runs may share
        // by chance, so the verdict decides.
        Baseline base = one->second;
        if (many != batched.end()) base.message_stable = false;
        kill = killed(base, *rec);
      }
      else if (const JournalRecord* rec = result(number, kBatchMutantRun, t); rec && many != batched.end())
        kill = killed(many->second, *rec);
      if (kill) {
        kills_of_test[t].push_back(static_cast<std::uint32_t>(m));
        any = true;
      }
    }
    out.killed += any;
  }
  for (std::size_t t = 0; t < s_.test_count(); ++t) {
    if (left.count(s_.tests()[t].name)) continue;
    b.add_test(s_.tests()[t], kills_of_test[t]);
  }
  return std::move(b).finish();
}

MutantRunResult MutantRun::run() {
  MutantRunResult out;
  const auto per_mutant = tests_per_mutant();
  std::set<std::uint32_t> needed;
  for (const auto& tests : per_mutant) needed.insert(tests.begin(), tests.end());
  for (const std::uint32_t t : needed) command(t);  // every needed test must be there: fail before running
  const auto stopped = [&] {
    out.runs = runs_.load();
    out.batches = batches_.load();
    out.reused = reused_;
    out.interrupted = stop_.load();
    return out.interrupted;
  };

  // Batches first: what they judge needs no run alone.
  std::map<std::uint32_t, Baseline> batched;
  if (r_.pytest_batch > 0 && !needed.empty()) {
    const std::vector<std::uint32_t> all(needed.begin(), needed.end());
    std::vector<Job> jobs;
    for (const std::uint32_t run : kBatchBaselineRuns)
      for (Job& job : batch_jobs(0, run, all, nullptr)) jobs.push_back(std::move(job));
    if (r_.progress && !jobs.empty())
      r_.progress->note(fmt::format("original program: {} tests, twice each, in {} pytest batches", needed.size(), jobs.size()));
    run_jobs(jobs);
    if (stopped()) return out;
    std::map<std::uint32_t, std::string> why_not;
    batched = judge_baselines(needed, kBatchBaselineRuns[0], kBatchBaselineRuns[1], why_not);
    if (batched.empty() && r_.warn)
      r_.warn("no pytest batch reported a test of the spectrum (is the test command pytest?): each test runs alone");
    jobs.clear();
    for (std::size_t m = 0; m < r_.mutants.size(); ++m) {
      std::vector<std::uint32_t> tests;
      for (const std::uint32_t t : per_mutant[m])
        if (batched.contains(t)) tests.push_back(t);
      for (Job& job : batch_jobs(r_.mutants[m].number, kBatchMutantRun, tests, &batched)) jobs.push_back(std::move(job));
    }
    if (r_.progress)
      r_.progress->note(fmt::format("{} mutants: {} pytest batches", r_.mutants.size(), jobs.size()));
    run_jobs(jobs);
    if (stopped()) return out;
  }

  // One test a process: every test without batches; with them, each test the batched
  // baselines could not judge and each (mutant, test) a batch left unreported.
  const auto alone_pair = [&](std::size_t m, std::uint32_t t) {
    const JournalRecord* rec = result(r_.mutants[m].number, kBatchMutantRun, t);
    return !batched.contains(t) || !rec || rec->kind == Kind::not_run;
  };
  std::set<std::uint32_t> alone_tests;
  for (std::size_t m = 0; m < r_.mutants.size(); ++m)
    for (const std::uint32_t t : per_mutant[m])
      if (alone_pair(m, t)) alone_tests.insert(t);
  std::vector<Job> baseline_jobs;
  for (const std::uint32_t t : alone_tests)
    for (const std::uint32_t run : kBaselineRuns)
      if (!result(0, run, t)) baseline_jobs.push_back({0, run, t, {}, r_.baseline_timeout});
  if (r_.progress && !baseline_jobs.empty())
    r_.progress->note(fmt::format("original program: {} tests, twice each", alone_tests.size()));
  run_jobs(baseline_jobs);
  if (stopped()) return out;
  std::map<std::uint32_t, std::string> why_not;
  const auto alone = judge_baselines(alone_tests, kBaselineRuns[0], kBaselineRuns[1], why_not);
  for (const auto& [t, why] : why_not) {
    const std::string& name = s_.tests()[t].name;
    // A test its batches judge stays; only the mutants its batch left unreported lose it.
    if (batched.contains(t)) {
      if (r_.warn) r_.warn(name + " " + why + " when run alone; a batch that did not report it does not count it");
      continue;
    }
    out.left_out.push_back(name);
    if (r_.warn) r_.warn(name + " " + why + "; left out");
  }

  std::vector<Job> jobs;
  for (std::size_t m = 0; m < r_.mutants.size(); ++m)
    for (const std::uint32_t t : per_mutant[m]) {
      const auto base = alone.find(t);
      if (alone_pair(m, t) && base != alone.end() && !result(r_.mutants[m].number, kMutantRun, t))
        jobs.push_back({r_.mutants[m].number, kMutantRun, t, {}, base->second.timeout});
    }
  if (r_.progress)
    r_.progress->note(fmt::format("{} mutants: {} test runs ({} read back from {})", r_.mutants.size(), jobs.size(),
                                  reused_, r_.journal.string()));
  run_jobs(jobs);
  if (stopped()) return out;
  out.kill_matrix = kill_matrix(per_mutant, alone, batched, out);
  io::remove_tree_quietly(r_.scratch);
  return out;
}

}  // namespace

MutantRunResult run_mutants(const MutantRunRequest& request) {
  if (request.spectrum == nullptr) throw Error("mutant runs need the original program's spectrum");
  for (const MutantToRun& m : request.mutants)
    if (m.number == 0) throw Error(m.file, m.line, "mutant number 0 is the original program");
  if (request.pytest_batch > 0) {
    if (request.pytest_template.empty()) throw Error("pytest batches need the test command template");
    // A {} that cannot take several names fails before the journal is opened.
    batch_command_text(request.pytest_template);
  }
  return MutantRun(request).run();
}

}  // namespace dlfl::collect
