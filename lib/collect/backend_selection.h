// Choosing and setting up the coverage backend for a listed test suite.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dlfl/collect/collect_request.h"
#include "dlfl/collect/coverage_backend.h"
#include "dlfl/collect/test_source.h"

namespace dlfl::collect {

// The executables the tests run: the gtest binary, CTest commands' first words that are
// files (not scripts run through an interpreter we cannot see into). Empty for commands.
std::vector<std::filesystem::path> test_executables(const CollectRequest& request,
                                                    const std::vector<TestCommand>& tests);

// The backend `request.coverage` asks for, or the one the binaries are built for
// (automatic; see CollectRequest::coverage), set up with its tools. Appends lines for
// the user to `notes` (e.g. why LLVM continuous mode is off). Throws dlfl::Error when
// nothing is instrumented or the binaries do not match the requested kind.
std::unique_ptr<CoverageBackend> select_backend(const CollectRequest& request, const std::vector<TestCommand>& tests,
                                                std::vector<std::string>& notes);

}  // namespace dlfl::collect
