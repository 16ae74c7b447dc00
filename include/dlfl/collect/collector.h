// collect(): the one entry point of collection. Runs (or reads) the tests the request's
// source names with per-test coverage and builds the spectrum:
//  - a gtest binary, CTest directory or command list under gcov/llvm (or runtime, except
//    a gtest binary) coverage: each test alone in its own process, N at a time;
//  - a gtest binary under runtime coverage: one process runs them all, restarted on the
//    tests after one that crashed or timed out, each keeping the coverage it reached;
//  - runtime snapshots of a run someone else started, or a dlfl_pytest run: read, not run.
#pragma once

#include "dlfl/collect/collect_request.h"
#include "dlfl/collect/collect_result.h"

namespace dlfl::collect {

// validate()s the request first. Repeats (request.repeat > 1) merge into one spectrum with
// k/N failure weights, listed in result.flaky; extrinsic elements (extrinsic_env,
// gtest_params) are added to the spectrum of runs dlfl starts.
// Throws dlfl::Error, after stopping every running test and removing the scratch
// directory, for: an invalid request, a test source that cannot be listed, a filter or
// shard that keeps no test, binaries without coverage instrumentation, a missing or
// mismatched coverage tool or probe map, unreadable coverage data or snapshots (naming
// the file), no test writing any coverage, no element left after the path filter, or an
// interrupt. Tests that fail, crash or time out are outcomes, not errors.
CollectResult collect(const CollectRequest& request);

}  // namespace dlfl::collect
