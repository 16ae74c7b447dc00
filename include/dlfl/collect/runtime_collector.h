// collect_with_runtime(): per-test coverage from ONE run of a GoogleTest binary built from
// a `dlfl instrument` tree and linked with the runtime's listener (libdlfl_rt_gtest).
//
// The binary runs with DLFL_RT_FILE set; the runtime writes each test's probe bytes into a
// memory-mapped snapshot file as they are reached (include/dlfl_rt/dlfl_rt_file.h), so a
// test that crashes, aborts or is killed keeps the coverage it reached. Such a test is
// recorded as failing with that partial coverage, and the binary is started again on the
// tests that did not run yet (a --gtest_filter), so no test ever runs twice. Elements are
// the original source lines of the probe map.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/progress.h"
#include "dlfl/collect/runtime_snapshot.h"  // read_runtime_snapshot(), for tests and tools
#include "dlfl/collect/test_source.h"
#include "dlfl/spectrum.h"

namespace dlfl::collect {

struct RuntimeCollectOptions {
  std::filesystem::path gtest_binary;     // instrumented GoogleTest binary
  std::vector<std::string> args;          // extra arguments for every run of it
  std::filesystem::path probe_map;        // dlfl-probes.map written by `dlfl instrument`
  std::string filter;                     // GoogleTest filter on the listed tests; empty: all
  std::optional<Shard> shard;             // GoogleTest's sharding of the filtered tests
  std::vector<std::string> env;           // extra "NAME=VALUE" for the runs
  std::filesystem::path cwd;              // empty: the caller's working directory
  // Per test: a test running longer is killed with its process group (SIGKILL) and
  // recorded as timed out. 0: no limit.
  std::chrono::milliseconds timeout{300000};
  // Runs of each test: > 1 passes --gtest_repeat, so the binary runs the tests `repeat`
  // times in one process and the runtime brackets every run as a slot of its own; a test
  // failing k of its N runs gets failure weight k/N (RunTally) and covers what any run
  // covered. After a crash the runs still missing are made up in restarts (a test that
  // took a process down counts that run as crashed).
  unsigned repeat = 1;
  // Coverage reached outside any test (static initialisation, main, between tests) is
  // added to every test of the same process, as a per-test gcov run would see it.
  bool include_outside_tests = true;
  // Element files: relative to the probe map's root (default) or absolute.
  bool absolute_paths = false;
  // When set (absolute_paths is then ignored): the probe map's files, made absolute, go
  // through this filter; kept files are named as it names them, the lines of the others
  // are no elements. An empty source_root stands for the probe map's root. No line left
  // is an error.
  std::optional<PathFilterOptions> paths;
  // Where snapshot files go (a fresh subdirectory); empty: the system temp directory.
  // Removed at the end unless keep_work.
  std::filesystem::path work_dir;
  bool keep_work = false;
  const std::atomic<bool>* interrupt = nullptr;  // set asynchronously: stop, then throw
  ProgressReporter* progress = nullptr;          // optional
};

struct RuntimeCollectStats {
  std::size_t listed = 0;     // tests listed after the filter
  std::size_t tests = 0;      // tests in the spectrum
  std::size_t failing = 0;    // of which failed, crashed or timed out
  std::size_t crashed = 0, timed_out = 0;
  std::size_t skipped = 0;    // GTEST_SKIP or never run: not in the spectrum
  std::size_t processes = 0;  // runs of the binary (1 + restarts after crashes/timeouts)
  std::size_t no_coverage = 0;  // tests in the spectrum that cover no element
  std::size_t elements = 0;
  // Test runs read from the snapshot while their process still ran (collect_with_runtime
  // reads ended tests every 10 ms, so that little is left to do when the run ends).
  std::size_t streamed = 0;
  double seconds = 0;
};

struct RuntimeCollectResult {
  Spectrum spectrum;  // tests in listing order; elements = probe map lines, by (file, line)
  RuntimeCollectStats stats;
  // One line each, for the user: crashed and timed-out tests, tests without coverage,
  // tests listed but not run, unexpected snapshot contents.
  std::vector<std::string> warnings;
  std::vector<std::string> flaky;  // "NAME k/N" of each test failing in some runs only
  std::filesystem::path work_dir;  // the scratch directory, when keep_work kept it
};

// Throws dlfl::Error for an unreadable probe map, a binary that cannot be listed or run,
// a snapshot written for another probe map (the binary was not built from that tree), no
// element left after the path filter, or an interrupt. Failing, crashing and timed-out tests are outcomes, not errors.
RuntimeCollectResult collect_with_runtime(const RuntimeCollectOptions& options);

}  // namespace dlfl::collect
