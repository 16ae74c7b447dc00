// Tests for reading Jahan et al.'s labels.csv (quoted fields, CRLF, both annotators,
// agreed values, duplicates, contradictions) and joining it to bugs by id.
#include "dlfl/lab/eval/bugset_labels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string header =
    "dataset,id,project,summary,fix_commit,dl_bug_a1,dl_bug_type_a1,extrinsic_a1,intrinsic_a1,"
    "dl_bug_a2,dl_bug_type_a2,extrinsic_a2,intrinsic_a2\r\n";

class BugsetLabels : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "dlfl-labels-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& content) {
    const fs::path path = dir_ / "labels.csv";
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  fs::path dir_;
};

TEST_F(BugsetLabels, ReadsBothAnnotatorsAndTheAgreedValue) {
  const LabelTable table = read_jahan_labels(write(
      header +
      "denchmark,a+b#1,a+b,\"Crash, with \"\"quotes\"\"\",\"commit_id:\"\"x\"\",\",1,GPU,1,0,1,GPU,0,1\r\n"
      "denchmark,a+b#2,a+b,s,c,1,Tensor,0,1,1,Tensor & Input,0,1\r\n"
      "denchmark,a+b#3,a+b,s,c,0,,,1,1,Model,1,1\r\n"
      "bugl,x+y#9,x+y,s,,,,0,1,,,1,0\r\n"
      "denchmark,a+b#1,a+b,s,c,1,GPU,1,0,1,GPU,0,1\r\n"));
  ASSERT_EQ(table.by_id.size(), 4u);
  EXPECT_EQ(table.duplicate_rows, 1u);

  const BugLabels& first = table.by_id.at("a+b#1").labels;
  EXPECT_EQ(first.first, (AnnotatorLabels{true, "GPU", true}));
  EXPECT_EQ(first.second, (AnnotatorLabels{true, "GPU", false}));
  EXPECT_EQ(first.agreed, (AnnotatorLabels{true, "GPU", std::nullopt}));

  EXPECT_EQ(table.by_id.at("a+b#2").labels.agreed, (AnnotatorLabels{true, "Tensor & Input", false}));

  const BugLabels& third = table.by_id.at("a+b#3").labels;
  EXPECT_EQ(third.first, (AnnotatorLabels{false, "", false}));  // extrinsic from !intrinsic
  EXPECT_EQ(third.second.extrinsic, std::nullopt);              // 1 and 1 contradict
  EXPECT_EQ(third.agreed, (AnnotatorLabels{std::nullopt, "", std::nullopt}));

  EXPECT_EQ(table.by_id.at("x+y#9").dataset, "bugl");
  ASSERT_EQ(table.warnings.size(), 1u);
  EXPECT_THAT(table.warnings[0], HasSubstr("labels.csv:4: extrinsic_a2 and intrinsic_a2 contradict"));
}

TEST_F(BugsetLabels, ConflictingDuplicateKeepsTheFirstRowWithAWarning) {
  const LabelTable table = read_jahan_labels(write(header +
                                                   "denchmark,a#1,a,s,c,1,API,0,1,1,API,0,1\n"
                                                   "denchmark,a#1,a,s,c,1,GPU,0,1,1,GPU,0,1\n"));
  EXPECT_EQ(table.by_id.at("a#1").labels.agreed.dl_bug_type, "API");
  ASSERT_EQ(table.warnings.size(), 1u);
  EXPECT_THAT(table.warnings[0], HasSubstr("labels.csv:3: id a#1 repeats an earlier row with different labels"));
}

TEST_F(BugsetLabels, BadCellsAndColumnsAreErrors) {
  try {
    read_jahan_labels(write(header + "denchmark,a#1,a,s,c,yes,API,0,1,1,API,0,1\n"));
    FAIL();
  } catch (const Error& error) {
    EXPECT_THAT(std::string(error.what()), HasSubstr("labels.csv:2: dl_bug_a1: expected 1, 0 or nothing"));
  }
  EXPECT_THROW(read_jahan_labels(write("dataset,id\ndenchmark,a#1\n")), Error);  // no label columns
}

TEST_F(BugsetLabels, JoinMatchesIdsOfTheChosenDataset) {
  const LabelTable table = read_jahan_labels(write(header +
                                                   "denchmark,a#1,a,s,c,1,API,0,1,1,API,0,1\n"
                                                   "denchmark,a#5,a,s,c,1,API,0,1,1,API,0,1\n"
                                                   "bugl,a#2,a,s,c,,,0,1,,,0,1\n"));
  std::vector<BugReport> bugs(3);
  bugs[0].id = "a#1";
  bugs[1].id = "a#2";
  bugs[2].id = "a#3";
  const LabelJoinResult result = join_labels(bugs, table);
  EXPECT_EQ(result.joined, 1u);
  EXPECT_THAT(result.unmatched_ids, ElementsAre("a#5"));
  EXPECT_TRUE(bugs[0].labels.has_value());
  EXPECT_FALSE(bugs[1].labels.has_value());  // a BuGL row: not joined to Denchmark bugs
  EXPECT_EQ(join_labels(bugs, table, "bugl").joined, 1u);
}

}  // namespace
}  // namespace dlfl::eval
