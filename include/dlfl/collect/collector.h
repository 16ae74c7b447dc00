// collect(): run a test suite one test per process with per-test coverage, in
// parallel, and build the line spectrum (elements × tests, outcomes).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/collect/coverage_backend.h"
#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/progress.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/spectrum.h"

namespace dlfl::collect {

enum class TestSourceKind : unsigned char {
  gtest,             // a GoogleTest binary
  ctest,             // a CTest build directory
  command_template,  // a file of names + a shell command template
};

struct CollectOptions {
  TestSourceKind source = TestSourceKind::gtest;
  std::filesystem::path gtest_binary;  // source gtest
  std::filesystem::path ctest_dir;     // source ctest
  std::filesystem::path test_list;     // source command_template: names, one a line
  std::string command_template;        //   and the command, `{}` = the name
  // command_template: a differential oracle (reference_oracle.h): `{}` is the test name;
  // a test passes when it ends and prints on stdout as this reference command does.
  // Empty: the exit status judges. reference_cache: where reference results are kept
  // across runs (empty: the scratch directory, this run only).
  std::string reference_command;
  std::filesystem::path reference_cache;
  // GoogleTest-style filter on test names (`Suite.*:Other.*-*Slow*`); empty: all.
  std::string filter;
  // Only this part of the (filtered) suite: GoogleTest's sharding for gtest binaries, a
  // split by name for the other sources (test_source.h). A shard that selects no test
  // is an error.
  std::optional<Shard> shard;

  // automatic: gtest/--object binaries are probed (LLVM coverage sections, embedded .gcda
  // paths); a CTest directory holding .gcno files is gcov, else its tests' executables
  // are probed. Errors when nothing is instrumented. runtime: the programs are built from
  // a `dlfl instrument` tree with libdlfl_rt (make_runtime_backend); needs probe_map.
  CoverageKind coverage = CoverageKind::automatic;
  std::filesystem::path probe_map;  // runtime: the tree's dlfl-probes.map
  CoverageTools tools;
  // LLVM: instrumented binaries besides the gtest binary / the CTest executables (shared
  // libraries; for command_template sources, the executables themselves).
  std::vector<std::filesystem::path> objects;
  PathFilterOptions paths;

  // dlfl's crash handler (libdlfl_crash_dump.so, see crash_dump.h), preloaded into the
  // test processes of gcov and LLVM (not continuous) collections so that a test killed by
  // a signal or the time limit keeps its coverage. Empty: not found; with
  // crash_handler = false: not wanted.
  std::filesystem::path crash_dump_library;
  bool crash_handler = true;

  unsigned jobs = 0;                         // parallel tests; 0: hardware threads
  std::chrono::milliseconds timeout{300000};  // per test (CTest TIMEOUT wins); 0: none
  std::chrono::milliseconds kill_grace{2000};  // SIGTERM → SIGKILL
  // Parent of the scratch directory (one subdirectory per running test); empty: the
  // system temp directory. Removed at the end unless keep_work.
  std::filesystem::path work_dir;
  bool keep_work = false;
  // Set asynchronously (SIGINT): running tests are killed, collect() throws.
  const std::atomic<bool>* interrupt = nullptr;
};

struct CollectStats {
  std::size_t listed = 0;   // tests the source listed (after the filter)
  std::size_t tests = 0;    // tests in the spectrum
  std::size_t failing = 0;  // of which failed (incl. crashed and timed out)
  std::size_t crashed = 0, timed_out = 0;
  std::size_t skipped = 0;        // skipped or not run: not in the spectrum
  std::size_t no_coverage = 0;    // tests in the spectrum without any coverage data
  std::size_t elements = 0;
  double seconds = 0;  // wall time of the whole collection
  CoverageKind backend = CoverageKind::automatic;
  std::string backend_description;
  unsigned jobs = 0;
};

struct CollectResult {
  // Tests in listing order; elements ordered by (file, line); origin: the source root.
  Spectrum spectrum;
  CollectStats stats;
  std::vector<std::string> warnings;  // one line each, for the user
};

// Lists, runs and reads the tests. With runtime coverage the elements are the probe map's
// lines and each test goes into the spectrum builder as soon as the tests before it are
// in (its coverage list is dropped then; only a test still running holds back the ones
// after it). Throws dlfl::Error, after stopping every running
// test and removing the scratch directory, for: a test source that cannot be listed,
// a filter that keeps no test, binaries without coverage instrumentation, a missing or
// mismatched coverage tool, unreadable coverage data (naming the test and file), no
// test writing any coverage, no line left after the path filter, or an interrupt. Tests that fail, crash or time out are
// outcomes, not errors.
CollectResult collect(const CollectOptions& options, ProgressReporter& progress);

}  // namespace dlfl::collect
