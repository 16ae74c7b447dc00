// collect_from_snapshots(): the spectrum of a run dlfl did not start — runtime snapshot
// files written by instrumented code under another harness (pytest with
// examples/pytest_conftest, several pytest-xdist workers, a custom test driver).
//
// The harness bracketed each test with dlfl_rt_begin_test/dlfl_rt_end_test, so the slots
// carry the outcomes: passed, failed, skipped. A slot still running when its process
// ended means the process died in that test: it is recorded as failing ("crashed") with
// the coverage it reached, and a warning. Elements are the original source lines of the
// probe map, as collect_with_runtime() names them.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/runtime_collector.h"
#include "dlfl/collect/test_source.h"

namespace dlfl::collect {

struct SnapshotCollectOptions {
  // One file per process (DLFL_RT_FILE, and DLFL_RT_FILE.PID of processes that found it
  // taken); their tests go into the spectrum in this order, then in the order they began.
  // A file named twice is read once.
  std::vector<std::filesystem::path> snapshots;
  std::filesystem::path probe_map;  // dlfl-probes.map written by `dlfl instrument`
  // Coverage a process reached outside any test (imports, module set-up, between tests)
  // is added to every test of that process.
  bool include_outside_tests = true;
  // As in RuntimeCollectOptions: element files relative to the probe map's root (default),
  // absolute, or named by a path filter (an empty source_root = the probe map's root).
  bool absolute_paths = false;
  std::optional<PathFilterOptions> paths;
  // Only the tests of this shard, split by name (test_source.h); skipped: not counted.
  std::optional<Shard> shard;
};

// The result's stats count `listed` = test slots read, `processes` = snapshot files read.
// A test name met again (a rerun, or in two snapshots) is one test: its coverage is the
// union, it is failing when every run failed and flaky when only some did (warning).
// Throws dlfl::Error for an unreadable probe map or snapshot, a snapshot written for
// another probe map ("SNAPSHOT: ... MAP", both named), snapshots holding no test at all,
// or no element left after the path filter. Failing and crashed tests are outcomes.
RuntimeCollectResult collect_from_snapshots(const SnapshotCollectOptions& options);

}  // namespace dlfl::collect
