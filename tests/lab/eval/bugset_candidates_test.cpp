// Tests for the reproduction candidates of a bug set: test paths, the native ground truth
// outside the tests, the test files a reproduction brings in, and the stats counts.
#include "dlfl/lab/eval/bugset_candidates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/lab/eval/bugset_stats.h"

namespace dlfl::eval {
namespace {

using ::testing::ElementsAre;

TEST(BugsetCandidates, TestPathsByDirectoryOrFileName) {
  for (const char* path : {"tests/cpp/ops.cc", "test/cpp/api/module.cpp", "modules/core/test/test_mat.cpp",
                           "src/ops/conv_test.cc", "python/test_ops.py", "src/ConvTest.cpp", "a/b_unittest.cc",
                           "src\\Testing\\x.h", "tests/CMakeLists.txt", "tools/test.cpp", "x/testdata/in.bin"})
    EXPECT_TRUE(is_test_path(path)) << path;
  for (const char* path : {"src/latest.cc", "src/contest/a.cpp", "src/attest.h", "src/testing_utils.cpp", "testx/a.cpp",
                           "src/Test.cpp/x.cc", "CMakeLists.txt", "src/protest.cpp"})
    EXPECT_FALSE(is_test_path(path)) << path;
}

TEST(BugsetCandidates, NativeTruthLeavesOutTestsAndOtherLanguages) {
  BugReport bug;
  bug.id = "o+r#1";
  bug.files = {{"src/a.cpp", "src/a.cpp", ChangeType::modify, {4, 5}, {4}, {}},
               {"tests/a_test.cpp", "tests/a_test.cpp", ChangeType::modify, {9}, {9, 10}, {}},
               {"python/x.py", "python/x.py", ChangeType::modify, {2}, {2}, {}},
               {"", "tests/b_test.cpp", ChangeType::add, {}, {}, {}},
               {"tests/old_test.cpp", "", ChangeType::delete_, {}, {}, {}},
               {"tests/r_test.cpp", "tests/s_test.cpp", ChangeType::rename, {}, {}, {}},
               {"src/k.cuh", "src/k.cuh", ChangeType::modify, {}, {7}, {}}};
  const BugCandidacy c = bug_candidacy(bug);
  EXPECT_THAT(c.native_truth, ElementsAre(GroundTruthItem{"src/a.cpp", 4, ""}, GroundTruthItem{"src/a.cpp", 5, ""},
                                          GroundTruthItem{"src/k.cuh", 0, ""}));
  EXPECT_THAT(c.test_files, ElementsAre("tests/a_test.cpp", "tests/b_test.cpp", "tests/s_test.cpp"));
  EXPECT_THAT(c.deleted_test_files, ElementsAre("tests/old_test.cpp", "tests/r_test.cpp"));
  EXPECT_TRUE(c.native_change());
  EXPECT_TRUE(c.tests_touched());

  BugReport python_only = bug;
  python_only.files = {bug.files[1], bug.files[2]};
  EXPECT_FALSE(bug_candidacy(python_only).native_change());
  EXPECT_TRUE(bug_candidacy(python_only).tests_touched());

  const BugsetStats stats = bugset_stats({bug, python_only});
  EXPECT_EQ(stats.bugs_with_native_fix, 1u);
  EXPECT_EQ(stats.bugs_touching_tests, 2u);
  EXPECT_EQ(stats.reproduction_candidates, 1u);
}

}  // namespace
}  // namespace dlfl::eval
