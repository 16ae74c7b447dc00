// Which bugs of a bug set can be reproduced and localized by SBFL over native code: the
// fix changed C/C++/CUDA code outside the tests (the ground truth) and touched a test (the
// Defects4J convention: the fix's tests are brought into the buggy version to expose it).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/bugset.h"

namespace dlfl::eval {

// Whether a repository path is test code: a directory component named test, tests,
// testing, unittest(s), testdata or test_data (any case), or a file whose name without
// extension starts with "test_" or ends with "_test", "_tests", "_unittest", "-test",
// "Test" or "Tests" (foo_test.cc, test_ops.py, ConvTest.cpp), or is "test"/"tests".
// `\` counts as `/`.
bool is_test_path(std::string_view path) noexcept;

// The ground-truth rules of a reproduction: the fix's native (is_native_source) files
// that are not tests, with the default rules of GroundTruthOptions otherwise.
GroundTruthOptions reproduction_truth_options();

struct BugCandidacy {
  // The faulty elements under reproduction_truth_options(); empty: no C/C++ change.
  std::vector<GroundTruthItem> native_truth;
  // Test files (is_test_path) the fix added, changed or renamed, by their new name, in
  // the bug's order: what a reproduction brings into the buggy version.
  std::vector<std::string> test_files;
  // Test files the fix deleted (old name): removed from the buggy version likewise.
  std::vector<std::string> deleted_test_files;

  bool native_change() const noexcept { return !native_truth.empty(); }
  bool tests_touched() const noexcept { return !test_files.empty() || !deleted_test_files.empty(); }
};

BugCandidacy bug_candidacy(const BugReport& bug);

}  // namespace dlfl::eval
