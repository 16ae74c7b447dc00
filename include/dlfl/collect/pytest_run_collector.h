// collect_pytest_run(): ONE spectrum of a pytest run across languages. Joins, by pytest
// node id, what python/dlfl_pytest left in its output directory (or the same files given
// one by one):
//  - the C++ lines each test ran: libdlfl_rt snapshots of an extension built from a
//    `dlfl instrument` tree (one file per process; elements named as the probe map's),
//  - the Python lines each test ran: coverage.py's JSON report with per-test contexts
//    (elements `file.py:LINE` with their function: from dlfl_pytest's ast-based table,
//    else coverage.py's own (>= 7.5), else found by indentation in the source),
//  - each test's runs and outcomes (failure weight k/N when k of N runs failed) and its
//    extrinsic conditions (`dtype=float16`, `device=cuda`, `ENV=value`), which become
//    extrinsic elements covered by the tests that ran under them.
// Any of the coverage sources may be missing (a C++-only or Python-only spectrum); the
// outcomes come from the run report, else from the snapshots' slots.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/snapshot_collector.h"
#include "dlfl/spectrum.h"

namespace dlfl::collect {

struct PytestRunOptions {
  std::filesystem::path report;         // dlfl_pytest's pytest-run.json; empty = none
  std::filesystem::path coverage_json;  // coverage.py report; empty = the report's (if it names one)
  bool python = true;                   // false: leave the Python lines out (a C++-only spectrum)
  // runtime.snapshots empty = no C++ lines. runtime.probe_map empty = found from the
  // instrumented images the report names, else in the report's directory or the directory
  // the tests ran in (find_probe_map_of_run); none found is an error when there are
  // snapshots.
  SnapshotCollectOptions runtime;
  bool cpp = true;  // false: leave the C++ lines out (and say nothing about missing ones)
  // Python files: named relative to this directory when set (files outside it are left
  // out), else as coverage.py names them; `python_excludes` globs match that name.
  std::filesystem::path python_root;
  std::vector<std::string> python_excludes;
  bool extrinsic = true;  // false: no extrinsic elements
};

struct PytestRunStats {
  std::size_t tests = 0, failing = 0, flaky = 0, crashed = 0;
  std::size_t skipped = 0;  // every run skipped: not in the spectrum
  std::size_t cpp_elements = 0, python_elements = 0, extrinsic_elements = 0;
  std::size_t snapshots = 0;
  double seconds = 0;
};

struct PytestRunResult {
  Spectrum spectrum;  // tests in the report's order; elements: C++ lines, Python lines, extrinsic
  PytestRunStats stats;
  std::vector<std::string> flaky;     // "NODE_ID k/N" of each flaky test
  std::vector<std::string> warnings;  // one line each
  std::filesystem::path probe_map;    // the probe map used (given or found); empty when none
};

// Warns about silent gaps, each in a line that says what to check: an extension module of
// the project loaded without probes (a stale plain build imported instead of the
// instrumented one), a probe map but no instrumented code that ran, a probe map none of
// whose probes a test reached, a --dlfl-cov source none of whose files ran.
// Throws dlfl::Error (one line, naming the file) for unreadable or malformed inputs, no
// coverage source at all, coverage without any outcome source (coverage.py contexts alone
// say nothing about outcomes), or a run with no test.
PytestRunResult collect_pytest_run(const PytestRunOptions& options);

// The files of a dlfl_pytest output directory: DIR/pytest-run.json, its coverage report,
// and the runtime snapshots DIR/rt-*.map* (sorted). Throws dlfl::Error when DIR holds no
// run report.
PytestRunOptions pytest_run_directory(const std::filesystem::path& dir);

}  // namespace dlfl::collect
