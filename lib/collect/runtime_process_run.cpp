// ProcessRun: one process of an instrumented gtest binary on a group of tests (see
// runtime_collection.h): its snapshot's slots read while it runs and after it ended,
// a watchdog for the time limit and interrupts, and the blame for a process that ended
// before its first test.
#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <unordered_set>

#include "dlfl/collect/test_outcome.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_file.h"
#include "dlfl_rt/dlfl_rt_messages.h"
#include "runtime_collection.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

// Longest --gtest_filter we pass: one argument may not exceed 128 KiB on Linux.
constexpr std::size_t kMaxFilter = 100 * 1024;

std::uint64_t monotonic_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(t.tv_nsec);
}

// --gtest_filter values selecting exactly `remaining` (in order), each short enough for one
// argument: the positive list, else the negative list of everything else, else chunks.
std::vector<std::string> filters_for(const std::vector<std::string>& remaining, const std::vector<std::string>& all) {
  auto join = [](auto begin, auto end) {
    std::string s;
    for (auto it = begin; it != end; ++it) s += (s.empty() ? "" : ":") + *it;
    return s;
  };
  // Every test (the names are unique): the usual first run of a big suite.
  if (remaining.size() == all.size()) return {"*"};
  std::string positive = join(remaining.begin(), remaining.end());
  if (positive.size() <= kMaxFilter) return {positive};
  const std::unordered_set<std::string_view> keep(remaining.begin(), remaining.end());
  std::vector<std::string> others;
  for (const auto& t : all)
    if (!keep.count(t)) others.push_back(t);
  std::string negative = "*-" + join(others.begin(), others.end());
  if (negative.size() <= kMaxFilter) return {negative};
  std::vector<std::string> chunks;
  std::string chunk;
  for (const auto& t : remaining) {
    if (!chunk.empty() && chunk.size() + t.size() + 1 > kMaxFilter) chunks.push_back(std::move(chunk)), chunk.clear();
    chunk += (chunk.empty() ? "" : ":") + t;
  }
  if (!chunk.empty()) chunks.push_back(chunk);
  return chunks;
}

// The snapshot files of the children of the run writing `snapshot` (PATH.PID: gtest death
// tests re-execute the binary), found in its directory. Throws std::filesystem_error.
std::vector<fs::path> child_snapshots(const fs::path& snapshot) {
  const std::string prefix = snapshot.filename().string() + ".";
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(snapshot.parent_path()))
    if (entry.path().filename().string().starts_with(prefix)) found.push_back(entry.path());
  return found;
}

std::string tail(const std::string& text, std::size_t n) {
  return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

fs::path run_file(const fs::path& dir, std::size_t run, const char* extension) {
  return dir / ("run-" + std::to_string(run) + extension);
}

}  // namespace

ProcessRun::ProcessRun(RuntimeCollection& collection, std::vector<std::string> group, unsigned iterations)
    : c_(collection),
      r_(collection.r_),
      group_(std::move(group)),
      iterations_(iterations),
      unlisted_(collection.unlisted_run_),
      snapshot_path_(run_file(collection.work_.path(), collection.next_run_, ".map")),
      report_path_(run_file(collection.work_.path(), collection.next_run_, ".json")),
      messages_path_(run_file(collection.work_.path(), collection.next_run_, ".messages")),
      pending_(group_.begin(), group_.end()),
      listing_done_(!unlisted_),
      snapshot_tail_(snapshot_path_),
      // Reading the snapshot while the tests run hides that work behind the run: the ended
      // tests' records are complete up to the header's records_end, and a failing test's
      // message is written before its record. Not done when the tests need what only the
      // end tells: a child process's snapshot (death tests), messages from GoogleTest's
      // JSON report (an older listener), or several runs of a test (--repeat). The outside
      // coverage joins the streamed tests at the end (add_outside).
      streaming_(collection.listener_messages_ && collection.repeat_ == 1) {
  ++c_.next_run_;
  spec_ = spec_of(unlisted_ ? (r_.filter.empty() ? std::string("*") : r_.filter)
                            : filters_for(group_, c_.all_).front());
  // The watchdog: checks every 10 ms which test runs (from the snapshot file's live slot,
  // a few bytes) and kills the whole process group through `cancel_` when one exceeds the
  // limit or on interrupt; and reads the ended tests (stream). It waits on a condition, so
  // the run's end stops it at once.
  watchdog_ = std::thread([this] { watch(); });
}

ProcessRun::~ProcessRun() {
  if (runner_.joinable()) {
    cancel_ = true;
    runner_.join();
  }
  stop_watchdog();
}

ProcessSpec ProcessRun::spec_of(const std::string& filter) const {
  const GtestBinary& g = c_.g_;
  ProcessSpec spec;
  spec.argv = {g.binary.string(), "--gtest_filter=" + filter};
  if (!c_.listener_messages_) spec.argv.push_back("--gtest_output=json:" + report_path_.string());
  if (iterations_ > 1) spec.argv.push_back("--gtest_repeat=" + std::to_string(iterations_));
  spec.argv.insert(spec.argv.end(), g.args.begin(), g.args.end());
  spec.cwd = g.cwd;
  spec.env_set = g.env;
  spec.env_set.push_back("DLFL_RT_FILE=" + snapshot_path_.string());
  // GoogleTest >= 1.11 then prints only failures, not two flushed lines per passing test
  // into our pipe (two write calls per test, ~3 us of a 22 us test); what a crash leaves
  // in the output's tail is the crashing test's own output. Older versions ignore it; a
  // GTEST_BRIEF of the user's is kept.
  if (!std::getenv("GTEST_BRIEF") &&
      std::none_of(g.env.begin(), g.env.end(), [](const std::string& e) { return e.starts_with("GTEST_BRIEF="); }))
    spec.env_set.push_back("GTEST_BRIEF=1");
  if (c_.listener_messages_) spec.env_set.push_back(std::string(DLFL_RT_MESSAGES_ENV) + "=" + messages_path_.string());
  spec.stdout_limit = 16 * 1024;
  spec.output_interval = std::chrono::milliseconds(5);
  return spec;
}

std::vector<std::uint32_t> ProcessRun::outside_of(const RuntimeSnapshot& snap) const {
  return r_.include_outside_tests ? snap.outside : std::vector<std::uint32_t>{};
}

void ProcessRun::add_outside(const std::vector<std::uint32_t>& outside) {
  for (const auto& name : awaiting_outside_)
    if (auto r = c_.records_.find(name); r != c_.records_.end())
      r->second.probes.insert(r->second.probes.end(), outside.begin(), outside.end());
  awaiting_outside_.clear();
  if (PreparedMap* prepared = c_.map_.taken(); prepared && prepared->spectrum.staging())
    prepared->spectrum.flush_staged(outside);
}

// Named after the binary: the snapshot is our scratch file, the user never saw it.
void ProcessRun::check(const RuntimeSnapshot& snap) {
  if (checked_) return;
  checked_ = true;
  const instrument::ProbeMap& map = c_.map_.ready().map;
  if (snap.map_id && map.id && snap.map_id != map.id)
    throw Error(c_.g_.binary.string(), 0,
                "was instrumented with another probe map than " + r_.probe_map.string() +
                    " (the ids differ): give the dlfl-probes.map of the tree it was built from");
  check_snapshot_fits(snap, snapshot_path_, map, r_.probe_map);
}

// One slot at a time, straight into the spectrum when it is the next listed test: the
// snapshot is never held whole.
void ProcessRun::on_slot(const RuntimeSnapshot& snap, RuntimeSlot&& slot) {
  check(snap);
  if (!in_poll_) add_outside(outside_of(snap));
  const auto known = pending_.find(slot.name);
  if (known == pending_.end() || runs_here_[*known] >= iterations_) {
    c_.result_.warnings.push_back("the binary ran an unexpected test '" + slot.name + "'; ignored");
    return;
  }
  ++runs_here_[*known];
  ++slots_;
  if (in_poll_) ++c_.result_.stats.streamed;
  const std::string name = slot.name;
  const bool ended = slot.state == DLFL_RT_SLOT_ENDED;
  const std::uint64_t begin_ns = slot.begin_ns;
  RuntimeTestRecord rec = record_of_slot(std::move(slot), outside_of(snap));
  if (auto c = child_probes_.find(name); c != child_probes_.end())
    rec.probes.insert(rec.probes.end(), c->second.begin(), c->second.end());
  if (ended)
    add_failure_message(rec, name);
  else
    record_unended(rec, name, begin_ns);
  c_.add_run(name, std::move(rec));
  if (in_poll_ && r_.include_outside_tests) awaiting_outside_.insert(name);
  c_.add_ready();
  if (in_poll_) awaiting_outside_.erase(name);  // added: the spectrum's staging covers it
}

// An end never reported (DLFL_RT_UNKNOWN) keeps the message saying so.
void ProcessRun::add_failure_message(RuntimeTestRecord& rec, const std::string& name) {
  if (!rec.test.failed() || !rec.test.message.empty()) return;
  if (auto m = messages_.find(name); m != messages_.end() && !m->second.empty()) {
    rec.test.message = std::move(m->second.front());
    m->second.pop_front();
  } else if (!report_.empty()) {
    try {
      rec.test.message = parse_gtest_report(report_, name, report_path_.string()).failures;
    } catch (const Error&) {
    }
  }
}

// Began and never ended: this test took the process down (or we killed it).
void ProcessRun::record_unended(RuntimeTestRecord& rec, const std::string& name, std::uint64_t begin_ns) {
  const bool timeout = timed_out_.load();
  const bool signaled = process_.end == ProcessEnd::signaled || process_.end == ProcessEnd::cancelled;
  rec.test = TestCase::fail(name, timeout    ? TestStatus::timed_out
                                  : signaled ? TestStatus::crashed
                                             : TestStatus::failed);
  rec.test.runtime_ns = monotonic_ns() - begin_ns;
  const std::string how = timeout ? "timed out after " + std::to_string(c_.timeout_.count()) + " ms"
                                  : describe_end(process_, std::chrono::milliseconds(0));
  rec.test.message = how + "\n" + tail(process_.out, 2000);
  c_.result_.warnings.push_back(name + ": " + (timeout ? "" : "ended the test binary, ") + how +
                                "; recorded as failing with the coverage it reached");
}

void ProcessRun::read_messages() {
  if (messages_failed_ || !fs::exists(messages_path_)) return;
  try {
    messages_reader_.read_more(messages_path_, messages_);
  } catch (const Error& e) {
    messages_failed_ = true;
    c_.result_.warnings.push_back(std::string("failure messages left out: ") + e.what());
  }
}

// Checked after the header that bounds the records handed is read: a child writes its
// file before the test that started it ends. With one, the rest is read after the run.
bool ProcessRun::no_child_snapshot() {
  try {
    if (!child_snapshots(snapshot_path_).empty()) streaming_ = false;
  } catch (const fs::filesystem_error&) {
    streaming_ = false;
  }
  return streaming_;
}

void ProcessRun::stream() {
  if (!streaming_ || !listing_done_ || !c_.map_.done()) return;
  try {
    if (r_.include_outside_tests && !c_.map_.ready().spectrum.staging()) c_.map_.ready().spectrum.start_staging();
  } catch (...) {
    streaming_ = false;  // rethrown after the run
    return;
  }
  in_poll_ = true;
  try {
    snapshot_tail_.poll(
        [this](const RuntimeSnapshot& snap, RuntimeSlot&& slot) {
          const auto m = messages_.find(slot.name);
          if (slot.outcome != DLFL_RT_PASSED && slot.outcome != DLFL_RT_SKIPPED &&
              (m == messages_.end() || m->second.empty()))
            read_messages();
          on_slot(snap, std::move(slot));
        },
        [this] { return no_child_snapshot(); });
    in_poll_ = false;
  } catch (...) {
    in_poll_ = false;
    streaming_ = false;
    streaming_error_ = std::current_exception();
    cancel_ = true;
  }
}

void ProcessRun::watch() {
  const auto limit_ns = static_cast<std::uint64_t>(c_.timeout_.count()) * 1000000ULL;
  // A binary in which no test runs for a whole test's limit is hung too: between tests
  // (or with no listener to mark them at all) nothing else may take that long.
  std::uint64_t last_running_ns = monotonic_ns();
  std::unique_lock lock(finish_mutex_);
  while (!finish_signal_.wait_for(lock, std::chrono::milliseconds(10), [this] { return finished_; })) {
    if ((r_.interrupt && r_.interrupt->load()) || c_.map_.failed()) cancel_ = true;
    if (limit_ns) {
      const auto running = running_test(snapshot_path_);
      const std::uint64_t now = monotonic_ns();
      if (running) last_running_ns = now;
      if ((running && now - running->begin_ns > limit_ns) || (!running && now - last_running_ns > limit_ns)) {
        timed_out_ = true;
        cancel_ = true;
      }
    }
    stream();
  }
}

void ProcessRun::stop_watchdog() {
  if (!watchdog_.joinable()) return;
  {
    const std::lock_guard lock(finish_mutex_);
    finished_ = true;
  }
  finish_signal_.notify_one();
  watchdog_.join();
}

// The first run, started before the tests are listed. False: it must run again.
bool ProcessRun::run_along_with_listing() {
  runner_ = std::thread([this] {
    try {
      process_ = run_process(spec_, &cancel_);
    } catch (...) {
      run_error_ = std::current_exception();
    }
  });
  c_.list_tests();  // on an error, the destructor kills the run
  c_.unlisted_run_ = false;
  if (!c_.listener_messages_) return false;  // an older listener: again, with GoogleTest's JSON report
  group_ = c_.listed_;
  pending_.insert(group_.begin(), group_.end());
  listing_done_ = true;
  runner_.join();
  if (run_error_) std::rethrow_exception(run_error_);
  return true;
}

// What only the run's end tells: the children's coverage, the messages, the JSON report,
// the snapshot's remaining slots and its outside coverage.
void ProcessRun::read_after_run() {
  // A child's coverage belongs to the test of the same name.
  for (const auto& child : child_snapshots(snapshot_path_)) {
    try {
      for (auto& s : read_runtime_snapshot(child).tests)
        child_probes_[s.name].insert(child_probes_[s.name].end(), s.probes.begin(), s.probes.end());
    } catch (const Error& e) {
      c_.result_.warnings.push_back(std::string("ignoring a child process snapshot: ") + e.what());
    }
  }
  read_messages();
  if (fs::exists(report_path_)) {
    std::ifstream in(report_path_);
    std::stringstream ss;
    ss << in.rdbuf();
    report_ = ss.str();
  }
  RuntimeSnapshot snap;  // the header and outside coverage; the tests went to on_slot
  if (fs::exists(snapshot_path_)) {
    snap = snapshot_tail_.finish([this](const RuntimeSnapshot& s, RuntimeSlot&& slot) { on_slot(s, std::move(slot)); });
    check(snap);
  }
  add_outside(outside_of(snap));
  if (slots_ == 0) take_no_slots(snap);
}

// A process that ran no test of its group.
void ProcessRun::take_no_slots(const RuntimeSnapshot& snap) {
  const GtestBinary& g = c_.g_;
  // However the first process ended (a binary without the listener runs its tests unseen
  // and may hang in one): without a snapshot, no restart can do better.
  if (!fs::exists(snapshot_path_) && c_.result_.stats.processes == 1) {
    const bool clean = process_.end == ProcessEnd::exited && process_.exit_code == 0;
    const std::string how = timed_out_ ? "stopped: no test seen for " + std::to_string(c_.timeout_.count()) + " ms"
                                       : describe_end(process_, c_.timeout_);
    // The runtime said why itself (the prebuilt listener refusing an older GoogleTest).
    constexpr std::string_view kRuntimeError = "dlfl_rt: error: ";
    if (const auto at = process_.out.find(kRuntimeError); at != std::string::npos) {
      const auto from = at + kRuntimeError.size();
      throw Error(g.binary.string(), 0,
                  "ran (" + how + ") and its dlfl runtime refused: " +
                      process_.out.substr(from, process_.out.find('\n', from) - from));
    }
    throw Error(g.binary.string(), 0,
                std::string("ran") + (clean ? "" : " (" + how + ")") +
                    " but wrote no coverage snapshot: build it from a `dlfl instrument` tree and link it with "
                    "$(dlfl config --libs --gtest)");
  }
  if (process_.end == ProcessEnd::exited && process_.exit_code == 0) {
    // GoogleTest ran none of them (the filter matched nothing): they cannot run here.
    for (const auto& t : group_) {
      if (c_.runs_of_[t].runs == 0) c_.result_.warnings.push_back(t + ": listed but not run by the binary; left out");
      c_.complete(t);
    }
    return;
  }
  // The runtime or its listener refused to run (e.g. the prebuilt listener in a program
  // with its own, older GoogleTest): its one line is the error.
  if (const auto at = process_.out.find("dlfl_rt: error: "); at != std::string::npos)
    throw Error(g.binary.string(), 0, process_.out.substr(at + 16, process_.out.find('\n', at) - at - 16));
  // The process ended before its first test began (it died in static initialisation or a
  // suite set-up, or gtest ran nothing). Blame the first test it would have run, so every
  // restart makes progress and nothing runs twice; the runs it still lacks would end the
  // same way.
  const std::string& first = group_.front();
  RuntimeTestRecord rec;
  const bool ran_normally = process_.end == ProcessEnd::exited && (process_.exit_code == 0 || process_.exit_code == 1);
  rec.test = TestCase::fail(first, ran_normally ? TestStatus::failed : TestStatus::crashed);
  rec.test.message = "the binary ended (" + describe_end(process_, c_.timeout_) + ") before this test began\n" +
                     tail(process_.out, 2000);
  if (r_.include_outside_tests) rec.probes = snap.outside;
  c_.result_.warnings.push_back(first + ": " + rec.test.message.substr(0, rec.test.message.find('\n')));
  c_.add_run(first, std::move(rec));
  c_.complete(first);
}

bool ProcessRun::run() {
  if (unlisted_) {
    if (!run_along_with_listing()) return false;
  } else {
    process_ = run_process(spec_, &cancel_);
  }
  stop_watchdog();
  if (r_.interrupt && r_.interrupt->load()) throw Error("interrupted");
  (void)c_.map_.ready();  // a bad map's error, once the run is over
  if (streaming_error_) std::rethrow_exception(streaming_error_);
  read_after_run();
  return true;
}

}  // namespace dlfl::collect
