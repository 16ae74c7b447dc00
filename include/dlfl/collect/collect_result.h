// CollectResult: what collect() (collector.h) returns for any source — the spectrum, the
// counts behind the summary line, and the warnings for the user.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "dlfl/collect/coverage_backend.h"
#include "dlfl/spectrum.h"

namespace dlfl::collect {

// Counts of one collection; a count a source has no use for stays 0.
struct CollectStats {
  std::size_t listed = 0;   // tests listed after the filter and shard (snapshots: test slots read)
  std::size_t tests = 0;    // tests in the spectrum
  std::size_t failing = 0;  // of which failed (incl. crashed, timed out and flaky)
  std::size_t crashed = 0, timed_out = 0;
  std::size_t skipped = 0;      // skipped or not run: not in the spectrum
  std::size_t no_coverage = 0;  // tests in the spectrum without any coverage
  std::size_t elements = 0;
  // Runtime: runs of the gtest binary (1 + restarts after crashes and time-outs), or the
  // snapshot files read (one per process) for snapshots and a pytest run's C++ lines.
  std::size_t processes = 0;
  // Runtime gtest runs: test runs read from the snapshot while their process still ran.
  std::size_t streamed = 0;
  // A pytest run's elements by kind.
  std::size_t cpp_elements = 0, python_elements = 0, extrinsic_elements = 0;
  double seconds = 0;  // wall time of the whole collection
  // Tests run one per process (gcov, llvm, runtime per process): the backend and the
  // tests run in parallel.
  CoverageKind backend = CoverageKind::automatic;
  std::string backend_description;
  unsigned jobs = 0;
};

struct CollectResult {
  // Tests in listing order (a pytest run: the report's); elements ordered by (file, line),
  // then extrinsic ones; origin: the source root, or the probe map's root and id.
  Spectrum spectrum;
  CollectStats stats;
  std::vector<std::string> warnings;  // one line each, for the user
  std::vector<std::string> flaky;     // "NAME k/N" of each test failing in some runs only
  std::filesystem::path work_dir;     // the scratch directory, when keep_work kept it (runtime)
  std::filesystem::path probe_map;    // the probe map used, given or found; empty when none
};

}  // namespace dlfl::collect
