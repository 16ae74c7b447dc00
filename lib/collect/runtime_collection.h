// The parts of collect_with_runtime() (collectors.h): RuntimeCollection keeps the tests'
// runs across the processes of the binary and decides what the next process runs;
// ProcessRun is one process of the binary on a group of tests, its snapshot read while it
// runs, watched for time-outs and interrupts.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "dlfl/collect/collect_request.h"
#include "dlfl/collect/collect_result.h"
#include "dlfl/collect/process.h"
#include "dlfl/collect/runtime_messages.h"
#include "dlfl/collect/runtime_snapshot.h"
#include "dlfl/probe_map/probe_map.h"
#include "dlfl/spectrum_union.h"
#include "runtime_spectrum.h"
#include "dlfl/files/scratch_directory.h"

namespace dlfl::collect {

// The probe map and the spectrum's elements, made on a second thread while the tests run:
// a framework's map (10^5 sites, megabytes of text) takes tens of milliseconds to parse,
// which would otherwise add to the wall time of every collection.
struct PreparedMap {
  instrument::ProbeMap map;
  RuntimeSpectrumBuilder spectrum;
  PreparedMap(const std::filesystem::path& probe_map, bool absolute_paths, const std::optional<PathFilterOptions>& paths)
      : map(instrument::read_probe_map(probe_map)), spectrum(map, absolute_paths, paths) {}
};

// Starts preparing the map at construction; a map that cannot even be opened is reported
// then, in the map reader's words. failed() turns true as soon as preparing fails, so that
// a run can be cut short instead of a bad map being reported only after the whole suite.
class MapInPreparation {
 public:
  MapInPreparation(const std::filesystem::path& probe_map, bool absolute_paths,
                   std::optional<PathFilterOptions> paths);
  // Waits for the map the first time; rethrows its error every time.
  PreparedMap& ready();
  // Whether ready() would not wait.
  bool done() const;
  bool failed() const noexcept { return failed_.load(); }
  // The map when ready() returned it before, else null.
  PreparedMap* taken() noexcept { return prepared_.get(); }

 private:
  std::atomic<bool> failed_{false};
  std::future<std::unique_ptr<PreparedMap>> future_;
  std::unique_ptr<PreparedMap> prepared_;
  std::exception_ptr error_;
};

class ProcessRun;

// Every listed test's runs, across the processes of the binary, until each has
// `repeat` of them (or can run no more); complete tests go into the spectrum in listing
// order.
class RuntimeCollection {
 public:
  RuntimeCollection(const CollectRequest& request, const GtestBinary& source);
  CollectResult run();

 private:
  friend class ProcessRun;
  // Each test's runs so far; when it has `repeat_` of them (or can run no more) its
  // record joins `records_`.
  struct RunsSoFar {
    dlfl::TestRuns tally;               // the runs that were not skipped
    std::vector<std::uint32_t> probes;  // what any of them reached
    unsigned runs = 0;                  // skipped ones included
    bool complete = false;
  };

  void list_tests();
  void add_ready();
  void complete(const std::string& name);
  void add_run(const std::string& name, RuntimeTestRecord&& record);
  // The tests the next process runs and how many runs each still lacks.
  std::vector<std::string> next_group(unsigned& iterations);
  void forget_complete_tests();

  const CollectRequest& r_;
  const GtestBinary& g_;
  const unsigned repeat_;
  const std::chrono::milliseconds timeout_;
  MapInPreparation map_;
  const io::ScratchDirectory work_;
  // The listing run writes no snapshot: DLFL_RT_FILE is not set for it. A listener that
  // records failure messages (dlfl_rt_messages.h) creates its file already here; then the
  // runs need no GoogleTest JSON report, whose writing costs more than a small test.
  const std::filesystem::path listing_messages_;
  std::vector<std::string> all_, listed_, remaining_;
  bool listener_messages_ = true;
  // The first run starts along with the listing (see run()).
  bool unlisted_run_;
  CollectResult result_;
  // Tests ended but not yet in the spectrum: they go in in listing order, so this holds
  // only those that ran ahead of an earlier test (none, as gtest runs in listing order).
  std::unordered_map<std::string, RuntimeTestRecord> records_;
  std::size_t added_ = 0;
  // Hashed, as the per-test bookkeeping below: 10^4 tests of a few microseconds each.
  std::unordered_map<std::string, RunsSoFar> runs_of_;
  std::size_t completed_ = 0;  // listed tests that are complete (each once)
  std::size_t next_run_ = 0;   // numbers the runs' files, also of a run stopped early
};

// One process of the binary on `group` (the listed tests, once known, for the run that
// starts along with the listing), each test `iterations` times.
class ProcessRun {
 public:
  ProcessRun(RuntimeCollection& collection, std::vector<std::string> group, unsigned iterations);
  ProcessRun(const ProcessRun&) = delete;
  ProcessRun& operator=(const ProcessRun&) = delete;
  // Stops what still runs: the binary (killed) and the watchdog.
  ~ProcessRun();

  // Runs the process and takes in its tests. False when it must run again (the listing
  // showed a listener too old to write failure messages: it then needs a JSON report).
  bool run();

 private:
  ProcessSpec spec_of(const std::string& filter) const;
  std::vector<std::uint32_t> outside_of(const RuntimeSnapshot& snap) const;
  void add_outside(const std::vector<std::uint32_t>& outside);
  void check(const RuntimeSnapshot& snap);
  void on_slot(const RuntimeSnapshot& snap, RuntimeSlot&& slot);
  void add_failure_message(RuntimeTestRecord& rec, const std::string& name);
  void record_unended(RuntimeTestRecord& rec, const std::string& name, std::uint64_t begin_ns);
  void read_messages();
  bool no_child_snapshot();
  void stream();
  void watch();
  void stop_watchdog();
  bool run_along_with_listing();
  void read_after_run();
  void take_no_slots(const RuntimeSnapshot& snap);

  RuntimeCollection& c_;
  const CollectRequest& r_;
  std::vector<std::string> group_;
  const unsigned iterations_;
  const bool unlisted_;
  const std::filesystem::path snapshot_path_, report_path_, messages_path_;
  ProcessSpec spec_;

  // Filled in after the run (the tests streamed during it need none of them: see stream).
  std::map<std::string, std::vector<std::uint32_t>> child_probes_;
  RuntimeMessages messages_;
  RuntimeMessagesReader messages_reader_;
  bool messages_failed_ = false;
  std::string report_;
  ProcessResult process_;
  std::atomic<bool> cancel_{false}, timed_out_{false};

  // Streamed tests (read while their process ran) lack its outside coverage until it ends:
  // add_outside() then adds it to the rows of those in the spectrum (its staging) and to
  // the records of those still waiting in `records_` (awaiting_outside_).
  bool in_poll_ = false;
  std::unordered_set<std::string> awaiting_outside_;
  // Views of `group_`'s names, which outlive them: no copies of 10^4 names per run.
  std::unordered_set<std::string_view> pending_;
  std::atomic<bool> listing_done_;  // the tests may be read: pending_ is known
  std::unordered_map<std::string_view, unsigned> runs_here_;  // slots of this process per test
  std::size_t slots_ = 0;
  bool checked_ = false;
  RuntimeSnapshotTail snapshot_tail_;
  bool streaming_;
  std::exception_ptr streaming_error_;

  std::mutex finish_mutex_;
  std::condition_variable finish_signal_;
  bool finished_ = false;
  std::thread watchdog_;
  std::thread runner_;  // the process, while the listing runs
  std::exception_ptr run_error_;
};

}  // namespace dlfl::collect
