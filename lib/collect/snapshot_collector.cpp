// collect_from_snapshots(): runtime snapshot files of a run dlfl did not start (pytest,
// pytest-xdist workers) -> a line spectrum.
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <unordered_map>

#include "collectors.h"
#include "dlfl/collect/runtime_snapshot.h"
#include "dlfl/error.h"
#include "dlfl/probe_map/probe_map.h"
#include "dlfl/spectrum_union.h"
#include "dlfl_rt/dlfl_rt_file.h"
#include "runtime_spectrum.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

// Whether process `pid` still exists here. A running slot of a live writer is a test in
// progress, not a crash; pids are reused, so this only words a warning.
bool process_alive(std::int32_t pid) { return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM); }

// The runs of one test name (a rerun, or the same name in two processes) as one test: the
// union of their coverage, joined by the rule of spectrum_union.h (runtimes summed: each
// run took its time). Skipped runs count only when all runs were skipped.
RuntimeTestRecord merge_runs(std::vector<RuntimeTestRecord> runs, std::vector<std::string>& warnings) {
  if (runs.size() == 1) return std::move(runs.front());
  RuntimeTestRecord merged;
  TestRuns counted;
  for (const auto& run : runs) {
    if (run.skipped) continue;
    counted.add(run.test);
    merged.probes.insert(merged.probes.end(), run.probes.begin(), run.probes.end());
  }
  if (counted.runs() == 0) return std::move(runs.front());
  merged.test = counted.joined(RunTimeRule::total);
  const std::uint32_t failed = counted.failed();
  warnings.push_back(runs.front().test.name + ": ran " + std::to_string(runs.size()) + " times (" +
                     std::to_string(failed) + " failed" +
                     (counted.runs() < runs.size() ? ", " + std::to_string(runs.size() - counted.runs()) + " skipped"
                                                   : "") +
                     "); recorded once with the coverage of all runs" +
                     (failed && failed < counted.runs() ? ", as flaky" : ""));
  return merged;
}

}  // namespace

CollectResult collect_from_snapshots(const CollectRequest& o, const RuntimeSnapshots& source) {
  const auto started = std::chrono::steady_clock::now();
  const instrument::ProbeMap map = instrument::read_probe_map(o.probe_map);
  RuntimeSpectrumBuilder spectrum(map, o.absolute_paths, runtime_path_filter(o));
  CollectResult result;

  std::vector<std::string> order;  // test names, first met first
  std::unordered_map<std::string, std::vector<RuntimeTestRecord>> runs_of;
  std::vector<fs::path> read;
  for (const auto& path : source.files) {
    // A file named twice (`--snapshot run.map*` after `--snapshot run.map`) is one process.
    const fs::path canonical = fs::weakly_canonical(path);
    if (std::find(read.begin(), read.end(), canonical) != read.end()) continue;
    read.push_back(canonical);
    RuntimeSnapshot snap = read_runtime_snapshot(path);
    check_snapshot_fits(snap, path, map, o.probe_map);
    const std::vector<std::uint32_t> none;
    const auto& outside = o.include_outside_tests ? snap.outside : none;
    for (auto& slot : snap.tests) {
      if (o.shard && !name_shard_holds(*o.shard, slot.name)) continue;
      ++result.stats.listed;
      const bool running = slot.state != DLFL_RT_SLOT_ENDED;
      RuntimeTestRecord rec = record_of_slot(std::move(slot), outside);
      if (running) {
        const std::string pid = std::to_string(snap.pid);
        rec.test.message = "the process (pid " + pid + ") ended during this test; snapshot " + path.string();
        result.warnings.push_back(
            rec.test.name + ": the process (pid " + pid + ") ended during this test; recorded as failing (crashed) " +
            "with the coverage it reached" +
            (process_alive(snap.pid) ? " (pid " + pid + " still runs: if the run is not over, convert after it ends)"
                                     : ""));
      }
      auto& runs = runs_of[rec.test.name];
      if (runs.empty()) order.push_back(rec.test.name);
      runs.push_back(std::move(rec));
    }
  }
  if (order.empty() && o.shard && result.stats.listed == 0)
    throw Error("shard " + std::to_string(o.shard->index) + "/" + std::to_string(o.shard->count) +
                " holds none of the tests in the snapshots");
  if (order.empty())
    throw Error(read.size() == 1 ? source.files.front().string() : std::string(), 0,
                std::string(read.size() == 1 ? "holds no test" : "none of the snapshots holds a test") +
                    ": the harness must bracket each test with dlfl_rt_begin_test/dlfl_rt_end_test (for pytest: "
                    "examples/pytest_conftest/conftest.py next to the tests)");

  for (const auto& name : order) spectrum.add(merge_runs(std::move(runs_of.at(name)), result.warnings));
  spectrum.finish(result);
  result.stats.processes = read.size();
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace dlfl::collect
