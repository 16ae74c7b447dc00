// What reproducing one BugsC++ defect needs (Suresoft-GLaDOS/bugscpp, formerly
// defects4cpp), as `dlfl bugset import bugscpp` reads it from the defect's taxonomy entry
// and a manifest line carries it ("bugscpp" member, bugset_manifest.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlfl::eval {

// A file's bytes with a name: a patch ("0001-buggy.patch") or an extra file to copy into
// the tree (".dpp/test_list", relative to the tree's root, always contained in it).
struct BugsCppFile {
  std::string path;
  std::string content;  // raw bytes (a manifest writes non-UTF-8 content as base64)

  friend bool operator==(const BugsCppFile&, const BugsCppFile&) = default;
};

// Commands are shell command lines, one a list entry, run in order with `bash -c` in the
// tree's root (BugsC++ runs them in its container's /home/workspace); a step fails when a
// line fails. BugsC++'s `bash -c '...'` wrappers are removed; placeholders: {jobs} (the
// parallel build jobs, BugsC++'s @DPP_PARALLEL_BUILD@) and {source} (the tree's root,
// BugsC++'s /home/workspace). Its compilation-database variables are dropped.
struct BugsCppDefect {
  std::string url;    // the project's repository (info.url)
  std::uint32_t index = 0;  // 1-based position in meta.json's defects: names the patches
  std::vector<std::string> build;           // common.build
  std::vector<std::string> build_coverage;  // common.build-coverage: compiles with --coverage
  std::vector<std::string> test;            // common.test: runs case $(cat DPP_TEST_INDEX)
  std::vector<std::string> test_coverage;   // common.test-coverage
  // A defect's own commands for its last cases (extra_tests): case num_cases - n + k
  // (k = 1..n) runs extra_tests[k - 1] instead of the test command.
  std::vector<std::vector<std::string>> extra_tests;
  std::uint32_t num_cases = 0;        // cases 1..num_cases
  std::vector<std::uint32_t> cases;   // the cases failing on the buggy version, ascending
  std::vector<std::string> tags;
  // Patches applied (`git apply`) to the fix commit, in this order: common, split, then
  // buggy for the buggy version or fixed for the fixed one. Absent ones are empty.
  BugsCppFile common_patch, split_patch, buggy_patch, fixed_patch;
  std::vector<BugsCppFile> extra_files;  // copied over the tree after patching, sorted by path

  friend bool operator==(const BugsCppDefect&, const BugsCppDefect&) = default;
};

}  // namespace dlfl::eval
