// The collectors collect() dispatches to, one per way of getting a spectrum. Each takes a
// request validate() accepted, with its source already picked out of the variant.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dlfl/collect/collect_request.h"
#include "dlfl/collect/collect_result.h"
#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/progress.h"

namespace dlfl::collect {

// Variables that keep GoogleTest to the one test we ask for and the report we read.
inline const std::vector<std::string> kSingleGtestEnvUnset = {
    "GTEST_FILTER", "GTEST_OUTPUT", "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS",
    "GTEST_REPEAT", "GTEST_SHUFFLE", "GTEST_BREAK_ON_FAILURE", "GTEST_FAIL_FAST"};

// Each test of a gtest binary, CTest directory or command list alone in its own process,
// request.jobs at a time, with gcov, llvm or runtime (per process) coverage. One run: the
// request's repeat and extrinsic settings are the caller's business.
CollectResult collect_per_test(const CollectRequest& request, ProgressReporter& progress);

// One run of an instrumented gtest binary for all its tests (repeated in the process when
// request.repeat > 1), restarted after crashes (runtime_collector.cpp).
CollectResult collect_with_runtime(const CollectRequest& request, const GtestBinary& source);

// Snapshot files of a run dlfl did not start. A test name met again (a rerun, or in two
// snapshots) is one test: its coverage is the union, it is failing when every run failed
// and flaky when only some did (warning).
CollectResult collect_from_snapshots(const CollectRequest& request, const RuntimeSnapshots& source);

// A dlfl_pytest run: outcomes, Python lines, C++ lines and extrinsic elements joined by
// node id (pytest_run_collector.cpp).
CollectResult collect_pytest_run(const CollectRequest& request, const PytestRun& source);

// The path filter of a runtime collection: none (elements named relative to the probe
// map's root) unless the request names a source root or excludes.
std::optional<PathFilterOptions> runtime_path_filter(const CollectRequest& request);

}  // namespace dlfl::collect
