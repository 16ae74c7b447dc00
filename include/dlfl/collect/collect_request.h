// CollectRequest: everything one collection needs — where the tests and their coverage
// come from (the source) and the settings every source shares — checked in one place
// (validate) before collect() (collector.h) runs anything.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "dlfl/collect/coverage_backend.h"
#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/test_source.h"

namespace dlfl::collect {

class ProgressReporter;

// A GoogleTest binary. With gcov/llvm coverage each listed test runs alone, in its own
// process; with runtime coverage the binary (built from a `dlfl instrument` tree and
// linked with libdlfl_rt_gtest) runs the tests one after another in one process, and a
// crash restarts it on the tests after the crashing one.
struct GtestBinary {
  std::filesystem::path binary{};
  // Runtime coverage only (validate refuses them otherwise): extra arguments and
  // "NAME=VALUE" variables for every run of the binary, and its working directory
  // (empty: the caller's).
  std::vector<std::string> args{};
  std::vector<std::string> env{};
  std::filesystem::path cwd{};
};

// A CTest build directory: each test of `ctest --show-only=json-v1` runs alone.
struct CtestDirectory {
  std::filesystem::path dir{};
};

// A file of test names, one a line, each run by a shell command template.
struct CommandList {
  std::filesystem::path test_list{};
  std::string command{};  // run by /bin/sh -c; `{}` = the quoted test name
  // A differential oracle (reference_oracle.h), `{}` = the test name: a test passes when
  // it ends and prints on stdout as this reference command does. Empty: the exit status
  // judges. reference_cache: where reference results are kept across runs (empty: the
  // scratch directory, this run only).
  std::string reference_command{};
  std::filesystem::path reference_cache{};
};

// Runtime snapshot files of a run dlfl did not start (pytest with examples/pytest_conftest,
// pytest-xdist workers, a custom driver): one file per process (DLFL_RT_FILE, and
// DLFL_RT_FILE.PID of processes that found it taken), read in this order; a file named
// twice is read once. Coverage is runtime by nature; needs the probe map.
struct RuntimeSnapshots {
  std::vector<std::filesystem::path> files{};
};

// A pytest run made with python/dlfl_pytest: outcomes, Python lines (coverage.py), C++
// lines (runtime snapshots) and extrinsic conditions, joined by node id.
struct PytestRun {
  // dlfl_pytest's output directory (--dlfl-out DIR): DIR/pytest-run.json, the coverage
  // report it names and the snapshots DIR/rt-*.map*. Empty: the files below alone.
  std::filesystem::path directory{};
  std::filesystem::path report{};         // pytest-run.json; with `directory`: DIR's
  std::filesystem::path coverage_json{};  // coverage.py report; empty: the report's (if it names one)
  std::vector<std::filesystem::path> snapshots{};  // added to the directory's
  bool python = true;     // false: leave the Python lines out
  bool cpp = true;        // false: leave the C++ lines out (and say nothing about missing ones)
  bool extrinsic = true;  // false: no extrinsic elements
};

using CollectSource = std::variant<GtestBinary, CtestDirectory, CommandList, RuntimeSnapshots, PytestRun>;

// Settings left unset (std::nullopt) take their default; validate() refuses a set one that
// means nothing for the source (a time limit for snapshots of a run that already ended).
struct CollectRequest {
  CollectSource source;

  // automatic: gtest binaries and --object files are probed (LLVM coverage sections,
  // embedded .gcda paths); a CTest directory holding .gcno files is gcov, else its tests'
  // executables are probed. runtime: programs built from a `dlfl instrument` tree with
  // libdlfl_rt. Snapshots are runtime coverage whatever this says; pytest runs ignore it.
  CoverageKind coverage = CoverageKind::automatic;
  // The tree's dlfl-probes.map (runtime coverage, snapshots, a pytest run's C++ lines).
  // Empty: found from the gtest binary or the CTest directory (runtime_probe_map), or
  // from what a pytest run loaded.
  std::filesystem::path probe_map;
  // gcov/llvm only: the tools, and LLVM's instrumented binaries besides the gtest binary
  // or the CTest executables (shared libraries; for command lists, the executables).
  CoverageTools tools;
  std::vector<std::filesystem::path> objects;
  // Which files' lines are elements and how they are named. Runtime sources name files
  // relative to the probe map's root unless source_root or excludes are set (an empty
  // source_root then stands for the map's root); a pytest run's Python files are named
  // relative to source_root when set, excludes matching that name.
  PathFilterOptions paths;
  // Runtime only: element files absolute instead of relative to the probe map's root
  // (ignored when `paths` names a source root or excludes).
  bool absolute_paths = false;
  // Runtime only: coverage reached outside any test (static initialisation, main,
  // between tests) counts for every test of the same process.
  bool include_outside_tests = true;

  // GoogleTest-style filter on test names (`Suite.*:Other.*-*Slow*`); empty: all.
  std::string filter;
  // Only this part of the (filtered) suite: GoogleTest's sharding for gtest binaries, a
  // split by name for the other sources (test_source.h). A shard that selects no test
  // is an error.
  std::optional<Shard> shard;
  std::optional<unsigned> jobs;  // parallel tests; unset or 0: hardware threads
  // Per test (a CTest TIMEOUT wins); 0: none. Unset: 300 s.
  std::optional<std::chrono::milliseconds> timeout;
  std::chrono::milliseconds kill_grace{2000};  // SIGTERM → SIGKILL
  // Runs of every test, at least 1 (unset: 1). A test failing k of N runs gets failure
  // weight k/N. A gtest binary under runtime coverage repeats the tests in one process
  // (--gtest_repeat); other sources run the whole collection N times.
  std::optional<unsigned> repeat;
  // Extrinsic elements: these environment variables' values (NAME=value, the same for
  // every test) and, for a gtest binary, each test's GoogleTest type or value parameters.
  std::vector<std::string> extrinsic_env;
  bool gtest_params = false;

  // gcov/llvm only: dlfl's crash handler (libdlfl_crash_dump.so, see crash_dump.h),
  // preloaded so that a test killed by a signal or the time limit keeps its coverage.
  // Unset: on, when crash_dump_library names it (empty: not found).
  std::optional<bool> crash_handler;
  std::filesystem::path crash_dump_library;

  // Parent of the scratch directory (per-test coverage, snapshots); empty: the system
  // temp directory. Removed at the end unless keep_work.
  std::filesystem::path work_dir;
  bool keep_work = false;
  // The caller needs the tests' outcomes, not their coverage (a fix's run that only asks
  // whether the tests failing before pass now): a run in which no test wrote coverage,
  // every one killed say, is returned with its tests' outcomes instead of being an error.
  bool outcomes_only = false;
  // Not owned. Set asynchronously (SIGINT): running tests are killed, collect() throws.
  const std::atomic<bool>* interrupt = nullptr;
  // Not owned; null: no progress shown.
  ProgressReporter* progress = nullptr;
};

inline constexpr std::chrono::milliseconds kDefaultTestTimeout{300000};

// Throws dlfl::Error (one line, naming the option at fault as `dlfl collect` spells it)
// for a request whose parts do not go together: settings of a run dlfl starts given for
// snapshots or a pytest run, gcov/llvm settings with runtime coverage, a probe map
// without runtime coverage, runtime snapshots or a command list under runtime coverage
// without a probe map, parallel jobs for a gtest binary under runtime coverage, a pytest
// run given both as a directory and a report, or no run at all (repeat 0).
void validate(const CollectRequest& request);

// Whether the source's coverage is dlfl's runtime (snapshots are, always).
bool runtime_coverage(const CollectRequest& request) noexcept;

// The probe map of a runtime collection: the request's, else the first dlfl-probes.map
// found walking up from the gtest binary or the CTest directory (also via a CMake build
// directory's source directory). Throws dlfl::Error, naming where it looked, when none
// is found or the source is neither.
std::filesystem::path runtime_probe_map(const CollectRequest& request);

}  // namespace dlfl::collect
