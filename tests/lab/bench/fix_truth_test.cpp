// The ground truth of a real bug from its fix (fix_truth.h): the fix's line lists turned
// back into hunks of the buggy version, and the one rule of `dlfl versions` applied to
// them, for a Denchmark entry and a BugsC++ defect alike; the whole-file convention as the
// named variant.
#include "dlfl/lab/bench/fix_truth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "dlfl/lab/eval/ground_truth.h"

namespace dlfl::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

eval::FileChange modified(std::string file, std::vector<std::uint32_t> deleted, std::vector<std::uint32_t> added) {
  eval::FileChange f;
  f.old_name = f.new_name = std::move(file);
  f.deleted_lines = std::move(deleted);
  f.added_lines = std::move(added);
  return f;
}

std::vector<std::string> items(const std::vector<eval::GroundTruthItem>& truth) {
  std::vector<std::string> out;
  for (const auto& item : truth) out.push_back(eval::to_string(item));
  return out;
}

// src/k.cc's executable lines 3, 4, 5 (f), 9, 10 (g); tests/k_test.cc's line 2.
Spectrum sample() {
  SpectrumBuilder b;
  for (std::uint32_t line : {3, 4, 5}) b.add_element("src/k.cc", line, line, "f()");
  for (std::uint32_t line : {9, 10}) b.add_element("src/k.cc", line, line, "g()");
  b.add_element("tests/k_test.cc", 2, 2, "T");
  b.add_test(TestCase::fail("t1"), {0, 1, 2});
  b.add_test(TestCase::pass("t2"), {3, 4, 5});
  return std::move(b).finish();
}

TEST(FixTruth, RebuildsTheBuggyVersionsHunksFromTheFixsLineLists) {
  // A pure insertion after buggy line 4 (fixed lines 5-6): the buggy side is empty there.
  EXPECT_THAT(buggy_version_hunks(modified("a.c", {}, {5, 6})), ElementsAre(DiffHunk{5, 2, 4, 0}));
  // A one-line change, then a pure deletion further down (fixed numbering moved by one).
  EXPECT_THAT(buggy_version_hunks(modified("a.c", {3, 10}, {3, 4})),
              ElementsAre(DiffHunk{3, 2, 3, 1}, DiffHunk{10, 0, 10, 1}));
  // Added before deleted at one place is one hunk (deletions first, as diff writes them).
  EXPECT_THAT(buggy_version_hunks(modified("a.c", {7, 8}, {7})), ElementsAre(DiffHunk{7, 1, 7, 2}));
  // An insertion at the top of the file sits after line 0.
  EXPECT_THAT(buggy_version_hunks(modified("a.c", {}, {1})), ElementsAre(DiffHunk{1, 1, 0, 0}));
  eval::FileChange added;
  added.new_name = "new.c";
  added.change_type = eval::ChangeType::add;
  EXPECT_THAT(buggy_version_hunks(added), IsEmpty());
  eval::FileChange deleted;
  deleted.old_name = "old.c";
  deleted.change_type = eval::ChangeType::delete_;
  ASSERT_EQ(buggy_version_hunks(deleted).size(), 1u);
  EXPECT_EQ(buggy_version_hunks(deleted)[0].new_start, 1u);
  EXPECT_THROW(buggy_version_hunks(modified("a.c", {0}, {})), Error);
}

TEST(FixTruth, AnInsertionOnlyFixGivesTheExecutableLinesNextToIt) {
  eval::BugReport bug;
  bug.id = "p#1";
  // Inserts two lines after buggy line 6 (between f's last line 5 and g's first 9), and
  // adds a test line (tests are never faulty).
  bug.files = {modified("src/k.cc", {}, {7, 8}), modified("tests/k_test.cc", {}, {3})};
  EXPECT_THAT(items(fix_truth(bug, sample(), TruthRule::adjacent_lines)),
              ElementsAre("src/k.cc:5:f()", "src/k.cc:9:g()"));
  // The sensitivity variant: the file the fix only adds to counts as a whole file.
  EXPECT_THAT(items(fix_truth(bug, sample(), TruthRule::whole_file)), ElementsAre("src/k.cc"));
}

TEST(FixTruth, ChangedExecutableLinesAreFaultyAndANonExecutableOneHasItsNeighbours) {
  eval::BugReport bug;
  // Line 4 changed (executable); line 7, a comment, deleted: neighbours 5 and 9.
  bug.files = {modified("src/k.cc", {4, 7}, {4})};
  EXPECT_THAT(items(fix_truth(bug, sample(), TruthRule::adjacent_lines)),
              ElementsAre("src/k.cc:4:f()", "src/k.cc:5:f()", "src/k.cc:9:g()"));
  // The whole-file convention keeps every deleted line, executable or not.
  EXPECT_THAT(items(fix_truth(bug, sample(), TruthRule::whole_file)), ElementsAre("src/k.cc:4", "src/k.cc:7"));
}

TEST(FixTruth, AFileTheSpectrumLacksOrTheFixAddsGivesNothing) {
  eval::BugReport bug;
  eval::FileChange added;
  added.new_name = "src/new.cc";
  added.change_type = eval::ChangeType::add;
  bug.files = {modified("src/other.cc", {3}, {3}), added};
  EXPECT_THAT(fix_truth(bug, sample(), TruthRule::adjacent_lines), IsEmpty());
}

TEST(FixTruth, RuleNamesReadBack) {
  for (const auto rule : {TruthRule::adjacent_lines, TruthRule::whole_file})
    EXPECT_EQ(parse_truth_rule(to_string(rule)), rule);
  EXPECT_EQ(parse_truth_rule("nearest"), std::nullopt);
}

}  // namespace
}  // namespace dlfl::bench
