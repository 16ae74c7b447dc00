// run_mutants(): baseline runs of the original program (twice, to find flaky tests and
// time limits), then each mutant's tests, all through the journal, then the kill matrix.
#include "dlfl/collect/mutant_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <map>
#include <set>
#include <thread>

#include "collectors.h"
#include "dlfl/collect/process.h"
#include "dlfl/collect/test_outcome.h"
#include "dlfl/error.h"
#include "dlfl/files/tree_removal.h"
#include "dlfl/mutation_scores.h"
#include "interrupt_watch.h"
#include "kill_journal.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using detail::JournalRecord;
using Kind = TestOutcome::Kind;

struct Job {
  std::uint32_t mutant = 0;  // 0: baseline
  std::uint32_t run = 0;
  std::uint32_t test = 0;  // spectrum test id
  std::chrono::milliseconds timeout{0};
};

// What a test does on the original program, from its two baseline runs.
struct Baseline {
  Kind kind = Kind::passed;
  std::uint64_t message = 0;
  bool message_stable = true;  // both runs failed with the same message
  std::chrono::milliseconds timeout{0};
};

class MutantRun {
 public:
  explicit MutantRun(const MutantRunRequest& r)
      : r_(r), s_(*r.spectrum), journal_(r.journal, r.schemata_digest) {
    for (const TestCommand& t : r.tests) commands_.emplace(t.name, &t);
    for (const JournalRecord& rec : journal_.recorded()) remember(rec);
    reused_ = journal_.recorded().size();
  }

  MutantRunResult run();

 private:
  void remember(const JournalRecord& rec) {
    std::lock_guard lock(results_mutex_);
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
  std::map<std::uint32_t, Baseline> judge_baselines(const std::set<std::uint32_t>& needed, MutantRunResult& out);
  bool killed(const Baseline& b, const JournalRecord& rec) const;
  Spectrum kill_matrix(const std::vector<std::vector<std::uint32_t>>& per_mutant,
                       const std::map<std::uint32_t, Baseline>& baselines, MutantRunResult& out) const;

  const MutantRunRequest& r_;
  const Spectrum& s_;
  detail::KillJournal journal_;
  std::map<std::string, const TestCommand*> commands_;
  std::mutex results_mutex_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::string>, JournalRecord> results_;
  std::size_t reused_ = 0;
  std::atomic<std::size_t> runs_{0};
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

std::map<std::uint32_t, Baseline> MutantRun::judge_baselines(const std::set<std::uint32_t>& needed,
                                                             MutantRunResult& out) {
  std::map<std::uint32_t, Baseline> baselines;
  for (const std::uint32_t t : needed) {
    const JournalRecord* a = result(0, 1, t);
    const JournalRecord* b = result(0, 2, t);
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
      out.left_out.push_back(test.name);
      if (r_.warn) r_.warn(test.name + " " + why + "; left out");
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

Spectrum MutantRun::kill_matrix(const std::vector<std::vector<std::uint32_t>>& per_mutant,
                                const std::map<std::uint32_t, Baseline>& baselines, MutantRunResult& out) const {
  SpectrumBuilder b;
  for (const MutantToRun& m : r_.mutants)
    b.add_element(m.file, m.line, m.line, m.function, fmt::format("{}:{} {} #{}", m.file, m.line, m.op, m.number));
  const std::set<std::string> left(out.left_out.begin(), out.left_out.end());
  std::vector<std::vector<std::uint32_t>> kills_of_test(s_.test_count());
  for (std::size_t m = 0; m < r_.mutants.size(); ++m) {
    bool any = false;
    for (const std::uint32_t t : per_mutant[m]) {
      const auto base = baselines.find(t);
      if (base == baselines.end()) continue;
      const JournalRecord* rec = result(r_.mutants[m].number, 0, t);
      if (rec && killed(base->second, *rec)) {
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

  std::vector<Job> baseline_jobs;
  for (const std::uint32_t t : needed)
    for (const std::uint32_t run : {1u, 2u})
      if (!result(0, run, t)) baseline_jobs.push_back({0, run, t, r_.baseline_timeout});
  if (r_.progress && !baseline_jobs.empty())
    r_.progress->note(fmt::format("original program: {} tests, twice each", needed.size()));
  run_jobs(baseline_jobs);
  if (stop_.load()) {
    out.interrupted = true;
    return out;
  }
  const auto baselines = judge_baselines(needed, out);

  std::vector<Job> jobs;
  for (std::size_t m = 0; m < r_.mutants.size(); ++m)
    for (const std::uint32_t t : per_mutant[m]) {
      const auto base = baselines.find(t);
      if (base != baselines.end() && !result(r_.mutants[m].number, 0, t))
        jobs.push_back({r_.mutants[m].number, 0, t, base->second.timeout});
    }
  if (r_.progress)
    r_.progress->note(fmt::format("{} mutants: {} test runs ({} read back from {})", r_.mutants.size(), jobs.size(),
                                  reused_, r_.journal.string()));
  run_jobs(jobs);
  out.runs = runs_.load();
  out.reused = reused_;
  if (stop_.load()) {
    out.interrupted = true;
    return out;
  }
  out.kill_matrix = kill_matrix(per_mutant, baselines, out);
  io::remove_tree_quietly(r_.scratch);
  return out;
}

}  // namespace

MutantRunResult run_mutants(const MutantRunRequest& request) {
  if (request.spectrum == nullptr) throw Error("mutant runs need the original program's spectrum");
  for (const MutantToRun& m : request.mutants)
    if (m.number == 0) throw Error(m.file, m.line, "mutant number 0 is the original program");
  return MutantRun(request).run();
}

}  // namespace dlfl::collect
