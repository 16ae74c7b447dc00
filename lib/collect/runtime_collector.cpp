// Runtime-based collection: one run of an instrumented gtest binary, per-test slots read
// from the runtime's snapshot file, restarts on the remaining tests after a crash.
#include "dlfl/collect/runtime_collector.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "dlfl/collect/process.h"
#include "dlfl/collect/repeated_runs.h"
#include "dlfl/collect/runtime_messages.h"
#include "dlfl/collect/test_outcome.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/instrument/probe_map.h"
#include "dlfl/io/text_file.h"
#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_file.h"
#include "dlfl_rt/dlfl_rt_messages.h"
#include "runtime_spectrum.h"
#include "scratch_directory.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

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

// The probe map and the spectrum's elements, made on a second thread while the tests run:
// a framework's map (10^5 sites, megabytes of text) takes tens of milliseconds to parse,
// which would otherwise add to the wall time of every collection.
struct PreparedMap {
  instrument::ProbeMap map;
  RuntimeSpectrumBuilder spectrum;
  explicit PreparedMap(const RuntimeCollectOptions& o)
      : map(instrument::read_probe_map(o.probe_map)), spectrum(map, o.absolute_paths, o.paths) {}
};

// Starts preparing the map; `failed` becomes true as soon as that fails, so that a run can
// be cut short instead of a bad map being reported only after the whole suite.
std::future<std::unique_ptr<PreparedMap>> prepare_map(const RuntimeCollectOptions& o, std::atomic<bool>& failed) {
  // A map that cannot even be opened (or is no regular file) is reported, in the map
  // reader's words, before anything runs; io::InputFile's check cannot block on a FIFO.
  try {
    const io::InputFile check(o.probe_map);
  } catch (const Error&) {
    (void)instrument::read_probe_map(o.probe_map);
  }
  return std::async(std::launch::async, [&o, &failed] {
    try {
      return std::make_unique<PreparedMap>(o);
    } catch (...) {
      failed = true;
      throw;
    }
  });
}

}  // namespace

RuntimeCollectResult collect_with_runtime(const RuntimeCollectOptions& o) {
  const auto started = Clock::now();
  std::atomic<bool> map_failed{false};
  auto map_future = prepare_map(o, map_failed);
  std::unique_ptr<PreparedMap> prepared;
  std::exception_ptr map_error;
  // Waits for the map (and rethrows its error, every time) the first time it is needed.
  const auto ready = [&]() -> PreparedMap& {
    if (!prepared && !map_error) {
      try {
        prepared = map_future.get();
      } catch (...) {
        map_error = std::current_exception();
      }
    }
    if (map_error) std::rethrow_exception(map_error);
    return *prepared;
  };

  const ScratchDirectory work(o.work_dir, "dlfl-runtime", o.keep_work);
  // The listing run writes no snapshot: DLFL_RT_FILE is not set for it. A listener that
  // records failure messages (dlfl_rt_messages.h) creates its file already here; then the
  // runs need no GoogleTest JSON report, whose writing costs more than a small test.
  const fs::path listing_messages = work.path() / "listing.messages";
  std::vector<std::string> all, listed;
  bool listener_messages = true;
  if (o.repeat == 0) throw Error("--repeat must be at least 1");
  RuntimeCollectResult result;
  std::vector<std::string> remaining;
  const auto list_tests = [&] {
    std::vector<std::string> list_env = o.env;
    list_env.push_back(std::string(DLFL_RT_MESSAGES_ENV) + "=" + listing_messages.string());
    for (auto& c : list_gtest_tests(o.gtest_binary, list_env)) all.push_back(c.name);
    listener_messages = fs::exists(listing_messages);
    for (const auto& t : all)
      if (o.filter.empty() || gtest_filter_matches(o.filter, t)) listed.push_back(t);
    if (listed.empty()) throw Error(o.gtest_binary.string(), 0, "no test matches the filter '" + o.filter + "'");
    if (o.shard) {
      const std::size_t before = listed.size();
      std::size_t position = 0;
      std::erase_if(listed, [&](const std::string&) { return !gtest_shard_holds(*o.shard, position++); });
      if (listed.empty())
        throw Error(o.gtest_binary.string(), 0,
                    "shard " + std::to_string(o.shard->index) + "/" + std::to_string(o.shard->count) +
                        " holds none of its " + std::to_string(before) + " tests");
    }
    result.stats.listed = listed.size();
    if (o.progress) o.progress->start(listed.size());
    remaining = listed;
  };
  // The listing is a start of the test binary of its own (for 10^4 tests, as long as a
  // tenth of their run): without a shard to select, the first run starts at the same time,
  // with GoogleTest's own filter, and the listing's tests are matched to it while it runs.
  // Only if the listing shows a listener that writes no messages file (one compiled by an
  // older dlfl) is that run stopped and started again with a JSON report (the tests it had
  // begun then run twice).
  bool unlisted_run = !o.shard.has_value();
  if (!unlisted_run) list_tests();
  // Tests ended but not yet in the spectrum: they go in in listing order, so this holds
  // only those that ran ahead of an earlier test (none, as gtest runs in listing order).
  std::unordered_map<std::string, RuntimeTestRecord> records;
  std::size_t added = 0;
  const auto add_ready = [&] {
    for (auto it = records.end(); added < listed.size() && (it = records.find(listed[added])) != records.end(); ++added) {
      ready().spectrum.add(std::move(it->second));
      records.erase(it);
    }
  };
  // Each test's runs so far; when it has o.repeat of them (or can run no more) its record
  // joins `records`.
  struct TestRuns {
    RunTally tally;                      // the runs that were not skipped
    std::vector<std::uint32_t> probes;   // what any of them reached
    unsigned runs = 0;                   // skipped ones included
    bool complete = false;
  };
  // Hashed, as the per-test bookkeeping below: 10^4 tests of a few microseconds each.
  std::unordered_map<std::string, TestRuns> runs_of;
  std::size_t completed = 0;  // listed tests that are complete (each once)
  const auto complete = [&](const std::string& name) {
    TestRuns& r = runs_of[name];
    if (r.complete) return;
    r.complete = true;
    ++completed;
    RuntimeTestRecord rec;
    rec.skipped = r.tally.runs() == 0;
    if (!rec.skipped) rec.test = r.tally.combined();
    if (r.tally.flaky()) result.flaky.push_back(r.tally.flaky_label());
    rec.probes = std::move(r.probes);
    if (o.progress) o.progress->test_done(rec.test.failed());
    records[name] = std::move(rec);
  };
  const auto add_run = [&](const std::string& name, RuntimeTestRecord&& rec) {
    TestRuns& r = runs_of[name];
    ++r.runs;
    if (!rec.skipped) {
      r.tally.add(rec.test);
      r.probes.insert(r.probes.end(), rec.probes.begin(), rec.probes.end());
    }
    if (r.runs >= o.repeat) complete(name);
  };
  std::size_t next_run = 0;  // numbers the runs' files, also of a run stopped early

  while (unlisted_run || !remaining.empty()) {
    if (o.interrupt && o.interrupt->load()) throw Error("interrupted");
    // The tests with the fewest runs so far get the runs they lack in one process (all of
    // them, until a crash leaves some tests a run ahead of the others).
    unsigned fewest = o.repeat;
    std::vector<std::string> group;
    if (unlisted_run) {
      fewest = 0;  // group: the listed tests, once they are known
    } else if (runs_of.empty()) {  // the first run: nothing ran yet
      fewest = 0;
      group = remaining;
    } else {
      for (const auto& t : remaining) fewest = std::min(fewest, runs_of[t].runs);
      for (const auto& t : remaining)
        if (runs_of[t].runs == fewest) group.push_back(t);
    }
    const unsigned iterations = o.repeat - fewest;
    const std::string filter =
        unlisted_run ? (o.filter.empty() ? std::string("*") : o.filter) : filters_for(group, all).front();
    const std::size_t run = next_run++;
    ++result.stats.processes;
    const fs::path snapshot_path = work.path() / ("run-" + std::to_string(run) + ".map");
    const fs::path report_path = work.path() / ("run-" + std::to_string(run) + ".json");
    const fs::path messages_path = work.path() / ("run-" + std::to_string(run) + ".messages");
    ProcessSpec spec;
    spec.argv = {o.gtest_binary.string(), "--gtest_filter=" + filter};
    if (!listener_messages) spec.argv.push_back("--gtest_output=json:" + report_path.string());
    if (iterations > 1) spec.argv.push_back("--gtest_repeat=" + std::to_string(iterations));
    spec.argv.insert(spec.argv.end(), o.args.begin(), o.args.end());
    spec.cwd = o.cwd;
    spec.env_set = o.env;
    spec.env_set.push_back("DLFL_RT_FILE=" + snapshot_path.string());
    // GoogleTest >= 1.11 then prints only failures, not two flushed lines per passing test
    // into our pipe (two write calls per test, ~3 us of a 22 us test); what a crash leaves
    // in the output's tail is the crashing test's own output. Older versions ignore it; a
    // GTEST_BRIEF of the user's is kept.
    if (!std::getenv("GTEST_BRIEF") &&
        std::none_of(o.env.begin(), o.env.end(), [](const std::string& e) { return e.starts_with("GTEST_BRIEF="); }))
      spec.env_set.push_back("GTEST_BRIEF=1");
    if (listener_messages) spec.env_set.push_back(std::string(DLFL_RT_MESSAGES_ENV) + "=" + messages_path.string());
    spec.stdout_limit = 16 * 1024;
    spec.output_interval = std::chrono::milliseconds(5);

    // Filled in after the run (the tests streamed during it need none of them: see below).
    std::map<std::string, std::vector<std::uint32_t>> child_probes;
    RuntimeMessages messages;
    RuntimeMessagesReader messages_reader;
    bool messages_failed = false;
    std::string report;
    ProcessResult process;
    std::atomic<bool> cancel{false}, timed_out{false};

    // Streamed tests (read while their process ran) lack its outside coverage until it ends:
    // add_outside() then adds it to the rows of those in the spectrum (its staging) and to
    // the records of those still waiting in `records` (awaiting_outside).
    bool in_poll = false;
    std::unordered_set<std::string> awaiting_outside;
    const auto add_outside = [&](const std::vector<std::uint32_t>& outside) {
      for (const auto& name : awaiting_outside)
        if (auto r = records.find(name); r != records.end())
          r->second.probes.insert(r->second.probes.end(), outside.begin(), outside.end());
      awaiting_outside.clear();
      if (prepared && prepared->spectrum.staging()) prepared->spectrum.flush_staged(outside);
    };
    // Views of `group`'s names, which outlive them: no copies of 10^4 names per run.
    std::unordered_set<std::string_view> pending(group.begin(), group.end());
    std::atomic<bool> listing_done{!unlisted_run};  // the tests may be read: pending is known
    std::unordered_map<std::string_view, unsigned> runs_here;  // slots of this process per test
    std::size_t slots = 0;
    bool checked = false;
    // Named after the binary: the snapshot is our scratch file, the user never saw it.
    const auto check = [&](const RuntimeSnapshot& snap) {
      if (checked) return;
      checked = true;
      const instrument::ProbeMap& map = ready().map;
      if (snap.map_id && map.id && snap.map_id != map.id)
        throw Error(o.gtest_binary.string(), 0,
                    "was instrumented with another probe map than " + o.probe_map.string() +
                        " (the ids differ): give the dlfl-probes.map of the tree it was built from");
      check_snapshot_fits(snap, snapshot_path, map, o.probe_map);
    };
    // One slot at a time, straight into the spectrum when it is the next listed test: the
    // snapshot is never held whole.
    const auto on_slot = [&](const RuntimeSnapshot& snap, RuntimeSlot&& slot) {
      check(snap);
      if (!in_poll) add_outside(o.include_outside_tests ? snap.outside : std::vector<std::uint32_t>{});
      const auto known = pending.find(slot.name);
      if (known == pending.end() || runs_here[*known] >= iterations) {
        result.warnings.push_back("the binary ran an unexpected test '" + slot.name + "'; ignored");
        return;
      }
      ++runs_here[*known];
      ++slots;
      if (in_poll) ++result.stats.streamed;
      const std::string name = slot.name;
      const bool ended = slot.state == DLFL_RT_SLOT_ENDED;
      const std::uint64_t begin_ns = slot.begin_ns;
      RuntimeTestRecord rec =
          record_of_slot(std::move(slot), o.include_outside_tests ? snap.outside : std::vector<std::uint32_t>{});
      if (auto c = child_probes.find(name); c != child_probes.end())
        rec.probes.insert(rec.probes.end(), c->second.begin(), c->second.end());
      if (ended) {
        // An end never reported (DLFL_RT_UNKNOWN) keeps the message saying so.
        if (auto m = messages.find(name); rec.test.failed() && rec.test.message.empty() && m != messages.end() &&
                                          !m->second.empty()) {
          rec.test.message = std::move(m->second.front());
          m->second.pop_front();
        } else if (rec.test.failed() && rec.test.message.empty() && !report.empty()) {
          try {
            rec.test.message = parse_gtest_report(report, name, report_path.string()).failures;
          } catch (const Error&) {
          }
        }
      } else {
        // Began and never ended: this test took the process down (or we killed it).
        const bool timeout = timed_out.load();
        const bool signaled = process.end == ProcessEnd::signaled || process.end == ProcessEnd::cancelled;
        rec.test = TestCase::fail(name, timeout    ? TestStatus::timed_out
                                        : signaled ? TestStatus::crashed
                                                   : TestStatus::failed);
        rec.test.runtime_ns = monotonic_ns() - begin_ns;
        const std::string how = timeout ? "timed out after " + std::to_string(o.timeout.count()) + " ms"
                                        : describe_end(process, std::chrono::milliseconds(0));
        rec.test.message = how + "\n" + tail(process.out, 2000);
        result.warnings.push_back(name + ": " + (timeout ? "" : "ended the test binary, ") + how +
                                  "; recorded as failing with the coverage it reached");
      }
      add_run(name, std::move(rec));
      if (in_poll && o.include_outside_tests) awaiting_outside.insert(name);
      add_ready();
      if (in_poll) awaiting_outside.erase(name);  // added: the spectrum's staging covers it
    };
    // Reading the snapshot while the tests run hides that work behind the run: the ended
    // tests' records are complete up to the header's records_end, and a failing test's
    // message is written before its record. Not done when the tests need what only the end
    // tells: a child process's snapshot (death tests), messages from GoogleTest's JSON
    // report (an older listener), or several runs of a test (--repeat). The outside
    // coverage joins the streamed tests at the end (add_outside).
    RuntimeSnapshotTail snapshot_tail(snapshot_path);
    bool streaming = listener_messages && o.repeat == 1;
    std::exception_ptr streaming_error;
    const auto read_messages = [&] {
      if (messages_failed || !fs::exists(messages_path)) return;
      try {
        messages_reader.read_more(messages_path, messages);
      } catch (const Error& e) {
        messages_failed = true;
        result.warnings.push_back(std::string("failure messages left out: ") + e.what());
      }
    };
    // Checked after the header that bounds the records handed is read: a child writes its
    // file before the test that started it ends. With one, the rest is read after the run.
    const auto no_child_snapshot = [&] {
      try {
        if (!child_snapshots(snapshot_path).empty()) streaming = false;
      } catch (const fs::filesystem_error&) {
        streaming = false;
      }
      return streaming;
    };
    const auto stream = [&] {
      if (!streaming || !listing_done ||
          (map_future.valid() && map_future.wait_for(std::chrono::seconds(0)) != std::future_status::ready))
        return;
      try {
        if (o.include_outside_tests && !ready().spectrum.staging()) ready().spectrum.start_staging();
      } catch (...) {
        streaming = false;  // rethrown after the run
        return;
      }
      in_poll = true;
      try {
        snapshot_tail.poll(
            [&](const RuntimeSnapshot& snap, RuntimeSlot&& slot) {
              const auto m = messages.find(slot.name);
              if (slot.outcome != DLFL_RT_PASSED && slot.outcome != DLFL_RT_SKIPPED &&
                  (m == messages.end() || m->second.empty()))
                read_messages();
              on_slot(snap, std::move(slot));
            },
            no_child_snapshot);
        in_poll = false;
      } catch (...) {
        in_poll = false;
        streaming = false;
        streaming_error = std::current_exception();
        cancel = true;
      }
    };

    // The watchdog: checks every 10 ms which test runs (from the snapshot file's live slot,
    // a few bytes) and kills the whole process group through `cancel` when one exceeds the
    // limit or on interrupt; and reads the ended tests (stream). It waits on a condition, so
    // the run's end stops it at once.
    std::mutex finish_mutex;
    std::condition_variable finish_signal;
    bool finished = false;
    std::thread watchdog([&] {
      const auto limit_ns = static_cast<std::uint64_t>(o.timeout.count()) * 1000000ULL;
      std::unique_lock lock(finish_mutex);
      while (!finish_signal.wait_for(lock, std::chrono::milliseconds(10), [&] { return finished; })) {
        if ((o.interrupt && o.interrupt->load()) || map_failed) cancel = true;
        if (limit_ns) {
          const auto running = running_test(snapshot_path);
          if (running && monotonic_ns() - running->begin_ns > limit_ns) {
            timed_out = true;
            cancel = true;
          }
        }
        stream();
      }
    });
    const auto stop_watchdog = [&] {
      {
        const std::lock_guard lock(finish_mutex);
        finished = true;
      }
      finish_signal.notify_one();
      watchdog.join();
    };
    if (unlisted_run) {
      std::exception_ptr run_error;
      std::thread runner([&] {
        try {
          process = run_process(spec, &cancel);
        } catch (...) {
          run_error = std::current_exception();
        }
      });
      const auto stop_run = [&] {
        cancel = true;
        runner.join();
        stop_watchdog();
      };
      try {
        list_tests();
      } catch (...) {
        stop_run();
        throw;
      }
      unlisted_run = false;
      if (!listener_messages) {  // an older listener: again, with GoogleTest's JSON report
        stop_run();
        --result.stats.processes;
        continue;
      }
      group = listed;
      pending.insert(group.begin(), group.end());
      listing_done = true;
      runner.join();
      if (run_error) {
        stop_watchdog();
        std::rethrow_exception(run_error);
      }
    } else {
      try {
        process = run_process(spec, &cancel);
      } catch (...) {
        stop_watchdog();
        throw;
      }
    }
    stop_watchdog();
    if (o.interrupt && o.interrupt->load()) throw Error("interrupted");
    (void)ready();  // a bad map's error, once the run is over
    if (streaming_error) std::rethrow_exception(streaming_error);

    // A child's coverage belongs to the test of the same name.
    for (const auto& child : child_snapshots(snapshot_path)) {
      try {
        for (auto& s : read_runtime_snapshot(child).tests)
          child_probes[s.name].insert(child_probes[s.name].end(), s.probes.begin(), s.probes.end());
      } catch (const Error& e) {
        result.warnings.push_back(std::string("ignoring a child process snapshot: ") + e.what());
      }
    }
    read_messages();
    if (fs::exists(report_path)) {
      std::ifstream in(report_path);
      std::stringstream ss;
      ss << in.rdbuf();
      report = ss.str();
    }

    RuntimeSnapshot snap;  // the header and outside coverage; the tests went to on_slot
    if (fs::exists(snapshot_path)) {
      snap = snapshot_tail.finish(on_slot);
      check(snap);
    }
    add_outside(o.include_outside_tests ? snap.outside : std::vector<std::uint32_t>{});
    if (slots == 0 && process.end == ProcessEnd::exited && process.exit_code == 0) {
      if (!fs::exists(snapshot_path) && result.stats.processes == 1)
        throw Error(o.gtest_binary.string(), 0,
                    "ran but wrote no coverage snapshot: build it from a `dlfl instrument` tree and link it with "
                    "$(dlfl config --libs --gtest)");
      // GoogleTest ran none of them (the filter matched nothing): they cannot run here.
      for (const auto& t : group) {
        if (runs_of[t].runs == 0) result.warnings.push_back(t + ": listed but not run by the binary; left out");
        complete(t);
      }
    } else if (slots == 0) {
      // The runtime or its listener refused to run (e.g. the prebuilt listener in a
      // program with its own, older GoogleTest): its one line is the error.
      if (const auto at = process.out.find("dlfl_rt: error: "); at != std::string::npos)
        throw Error(o.gtest_binary.string(), 0,
                    process.out.substr(at + 16, process.out.find('\n', at) - at - 16));
      // The process ended before its first test began (it died in static initialisation
      // or a suite set-up, or gtest ran nothing). Blame the first test it would have run,
      // so every restart makes progress and nothing runs twice; the runs it still lacks
      // would end the same way.
      const std::string& first = group.front();
      RuntimeTestRecord rec;
      const bool ran_normally = process.end == ProcessEnd::exited && (process.exit_code == 0 || process.exit_code == 1);
      rec.test = TestCase::fail(first, ran_normally ? TestStatus::failed : TestStatus::crashed);
      rec.test.message = "the binary ended (" + describe_end(process, o.timeout) +
                         ") before this test began\n" + tail(process.out, 2000);
      if (o.include_outside_tests) rec.probes = snap.outside;
      result.warnings.push_back(first + ": " + rec.test.message.substr(0, rec.test.message.find('\n')));
      add_run(first, std::move(rec));
      complete(first);
    }
    add_ready();
    if (completed == listed.size())
      remaining.clear();  // every listed test is complete (the usual end): no lookup per test
    else
      std::erase_if(remaining, [&](const std::string& t) { return runs_of[t].complete; });
    if (!remaining.empty() && o.progress)
      o.progress->note("restarting the test binary on the " + std::to_string(remaining.size()) + " remaining tests");
  }

  add_ready();
  if (o.progress) o.progress->finish();
  ready().spectrum.finish(result);
  if (o.keep_work) result.work_dir = work.path();
  result.stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

}  // namespace dlfl::collect
