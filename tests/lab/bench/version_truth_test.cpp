// The ground truth of a faulty version from its diff (version_truth.h): diff -U0 hunk
// headers, changed executable lines, and the nearest executable lines above and below a
// change that has none (a deleted statement, a changed comment or declaration).
#include "dlfl/lab/bench/version_truth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/error.h"

namespace dlfl::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(VersionTruth, ParsesDiffHunkHeadersWithAndWithoutCounts) {
  const std::string diff =
      "--- a/src/x.c\t2024-01-01\n+++ b/src/x.c\n@@ -31 +31 @@\n-  for (i = 1; i < n; ++i)\n+  for (i = 1; i < n - 1; ++i)\n"
      "@@ -125,1 +124,0 @@\n-    next();\n@@ -0,0 +1,2 @@\n+#include <a.h>\n+#include <b.h>\n\\ No newline at end of file\n";
  EXPECT_THAT(parse_diff_hunks(diff, "x.diff"),
              ElementsAre(DiffHunk{31, 1, 31, 1}, DiffHunk{125, 1, 124, 0}, DiffHunk{0, 0, 1, 2}));
  EXPECT_THAT(parse_diff_hunks("only text\n", "x.diff"), IsEmpty());
}

TEST(VersionTruth, RefusesAMalformedHunkHeaderNamingTheLine) {
  try {
    parse_diff_hunks("--- a\n+++ b\n@@ -3,x +3 @@\n", "v.diff");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "v.diff:3: malformed hunk header (expected '@@ -a,b +c,d @@')");
  }
}

TEST(VersionTruth, ChangedExecutableLinesAreTheFault) {
  const std::vector<std::uint32_t> executable{10, 11, 12, 20, 21, 30};
  const std::vector<DiffHunk> hunks{{11, 2, 11, 3}};  // version lines 11..13: 11 and 12 run
  EXPECT_THAT(faulty_version_lines(hunks, executable), ElementsAre(11, 12));
}

TEST(VersionTruth, ADeletedStatementIsLocatedByTheExecutableLinesAroundIt) {
  const std::vector<std::uint32_t> executable{3, 5, 8, 12};
  // Line 7 of the original deleted: the gap follows version line 6 (not executable).
  EXPECT_THAT(faulty_version_lines(std::vector<DiffHunk>{{7, 1, 6, 0}}, executable), ElementsAre(5, 8));
  // A deletion right after an executable line: that line is the one above.
  EXPECT_THAT(faulty_version_lines(std::vector<DiffHunk>{{6, 1, 5, 0}}, executable), ElementsAre(5, 8));
  // Before the first executable line, after the last: only one neighbour exists.
  EXPECT_THAT(faulty_version_lines(std::vector<DiffHunk>{{1, 1, 0, 0}}, executable), ElementsAre(3));
  EXPECT_THAT(faulty_version_lines(std::vector<DiffHunk>{{20, 2, 13, 0}}, executable), ElementsAre(12));
}

TEST(VersionTruth, AChangeWithoutExecutableLinesTakesBothNeighboursAndHunksMerge) {
  const std::vector<std::uint32_t> executable{3, 5, 8, 12};
  // Version lines 6-7 changed (a declaration and a comment): 5 above, 8 below; a second
  // hunk on executable line 12; the result is sorted and unique.
  const std::vector<DiffHunk> hunks{{6, 2, 6, 2}, {12, 1, 12, 1}, {4, 0, 4, 1}};
  EXPECT_THAT(faulty_version_lines(hunks, executable), ElementsAre(3, 5, 8, 12));
  EXPECT_THAT(faulty_version_lines(hunks, std::vector<std::uint32_t>{}), IsEmpty());
}

}  // namespace
}  // namespace dlfl::bench
