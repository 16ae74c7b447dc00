// Tests for the bug-set model: ground truth from a fix (deleted lines, omissions, added,
// deleted and renamed files), agreed labels, file classification and statistics.
#include "dlfl/lab/eval/bugset.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/lab/eval/bugset_stats.h"

namespace dlfl::eval {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

FileChange modify(const std::string& path, std::vector<std::uint32_t> deleted,
                  std::vector<std::uint32_t> added) {
  return {path, path, ChangeType::modify, std::move(deleted), std::move(added), {}};
}

FileChange whole_file(ChangeType type, const std::string& old_name, const std::string& new_name) {
  return {old_name, new_name, type, {}, {}, {}};
}

BugReport bug_with(std::vector<FileChange> files) {
  BugReport bug;
  bug.id = "o+r#1";
  bug.project = "o+r";
  bug.files = std::move(files);
  return bug;
}

TEST(BugsetGroundTruth, DeletedLinesAreFaultyLinesNamedByTheirInnermostMethod) {
  FileChange file = modify("src/conv.cc", {2, 30, 35}, {31});
  file.methods = {{"ns::Conv::Run", "ctx", 20, 40, {30, 35}, {31}},
                  {"ns::Conv::Run.lambda", "", 29, 31, {30}, {}}};
  const std::vector<GroundTruthItem> items = ground_truth(bug_with({file}));
  EXPECT_THAT(items, ElementsAre(GroundTruthItem{"src/conv.cc", 2, ""},
                                 GroundTruthItem{"src/conv.cc", 30, "ns::Conv::Run.lambda"},
                                 GroundTruthItem{"src/conv.cc", 35, "ns::Conv::Run"}));
}

TEST(BugsetGroundTruth, AddOnlyChangesCountAtFileLevel) {
  const BugReport bug = bug_with({modify("a.py", {}, {5, 6}),  // a fault of omission
                                  whole_file(ChangeType::add, "", "tests/test_a.py"),
                                  whole_file(ChangeType::delete_, "old.py", ""),
                                  whole_file(ChangeType::rename, "x/b.py", "y/b.py"),
                                  modify("c.py", {}, {})});  // no lines recorded at all
  EXPECT_THAT(ground_truth(bug), ElementsAre(GroundTruthItem{"a.py", 0, ""},
                                             GroundTruthItem{"tests/test_a.py", 0, ""},
                                             GroundTruthItem{"old.py", 0, ""}));

  GroundTruthOptions lines_only;
  lines_only.omission_files = lines_only.added_files = lines_only.deleted_files = false;
  EXPECT_TRUE(ground_truth(bug, lines_only).empty());

  GroundTruthOptions with_renames;
  with_renames.renamed_files = true;
  EXPECT_EQ(ground_truth(bug, with_renames).back(), (GroundTruthItem{"x/b.py", 0, ""}));
}

TEST(BugsetGroundTruth, KeepFileFiltersAndDuplicatesCollapse) {
  const BugReport bug = bug_with({modify("kernel.cu", {7}, {}), modify("setup.py", {3}, {}),
                                  whole_file(ChangeType::copy, "kernel.cu", "kernel2.cu"),
                                  modify("kernel.cu", {7}, {8})});
  GroundTruthOptions native;
  native.keep_file = [](std::string_view path) { return is_native_source(path); };
  EXPECT_THAT(ground_truth(bug, native), ElementsAre(GroundTruthItem{"kernel.cu", 7, ""}));
}

TEST(BugsetModel, FileClassification) {
  EXPECT_EQ(file_extension("a/b/Conv.CU"), ".cu");
  EXPECT_EQ(file_extension("a.b/Makefile"), "");
  EXPECT_EQ(file_extension(".gitignore"), "");
  EXPECT_EQ(file_extension("ci/.travis.yml"), ".yml");
  for (const char* path : {"a.c", "b/x.CC", "x.cpp", "x.cxx", "x.c++", "x.h", "x.hh", "x.hpp", "x.hxx",
                           "x.inl", "k.cu", "k.cuh"})
    EXPECT_TRUE(is_native_source(path)) << path;
  for (const char* path : {"a.py", "x.mm", "x.m", "x.cs", "c", "x.cuda", "x.hpp.in", "h"})
    EXPECT_FALSE(is_native_source(path)) << path;
}

TEST(BugsetModel, ChangeTypesAndSizes) {
  const BugReport bug = bug_with({modify("a.py", {1, 2}, {1}), whole_file(ChangeType::add, "", "b.py"),
                                  modify("c.py", {}, {4})});
  EXPECT_THAT(change_types(bug), ElementsAre(ChangeType::add, ChangeType::modify));
  EXPECT_EQ(changed_line_count(bug), 4u);
  EXPECT_EQ(to_string(ChangeType::delete_), "DELETE");
  EXPECT_EQ(parse_change_type("RENAME"), ChangeType::rename);
  EXPECT_EQ(parse_change_type("rename"), std::nullopt);
  const std::vector<BugReport> bugs = {bug};
  EXPECT_EQ(find_bug(bugs, "o+r#1"), &bugs[0]);
  EXPECT_EQ(find_bug(bugs, "o+r#2"), nullptr);
}

TEST(BugsetModel, AgreedLabelsKeepOnlyWhatBothAnnotatorsSaid) {
  const AnnotatorLabels first{true, "GPU", true};
  EXPECT_EQ(agreed_labels(first, first), first);
  const AnnotatorLabels agreed = agreed_labels(first, {true, "API", std::nullopt});
  EXPECT_EQ(agreed.dl_bug, true);
  EXPECT_EQ(agreed.dl_bug_type, "");
  EXPECT_EQ(agreed.extrinsic, std::nullopt);
}

TEST(BugsetStats, CountsAndFixSizes) {
  std::vector<BugReport> bugs(4);
  bugs[0] = bug_with({modify("src/a.cc", {1, 2, 3}, {1, 2}), modify("README.md", {}, {9})});
  bugs[0].category = "Framework";
  bugs[0].languages = {"python", "c++"};
  bugs[0].labels = BugLabels{{true, "GPU", true}, {true, "GPU", true}, {true, "GPU", true}};
  bugs[1] = bug_with({modify("k.cu", {}, {}), whole_file(ChangeType::add, "", "Makefile")});
  bugs[1].category = "Framework";
  bugs[1].labels = BugLabels{{false, "", false}, {false, "", true}, {false, "", std::nullopt}};
  std::vector<std::uint32_t> many(30);
  for (std::uint32_t k = 0; k < many.size(); ++k) many[k] = k + 1;
  bugs[2] = bug_with({modify("b.py", many, many)});
  bugs[2].project = "p+q";
  bugs[2].labels = BugLabels{{true, "API", false}, {true, "Model", false}, {true, "", false}};
  bugs[3] = bug_with({modify("c.py", {}, {4})});

  const BugsetStats stats = bugset_stats(bugs);
  EXPECT_EQ(stats.bugs, 4u);
  EXPECT_EQ(stats.projects, 2u);
  EXPECT_EQ(stats.file_changes, 6u);
  EXPECT_THAT(stats.bugs_per_category, ElementsAre(Pair("(unknown)", 2), Pair("Framework", 2)));
  EXPECT_THAT(stats.bugs_per_language, ElementsAre(Pair("c++", 1), Pair("python", 1)));
  EXPECT_THAT(stats.file_changes_per_extension,
              ElementsAre(Pair("(none)", 1), Pair(".cc", 1), Pair(".cu", 1), Pair(".md", 1), Pair(".py", 2)));
  EXPECT_THAT(stats.bugs_per_change_type, ElementsAre(Pair("ADD", 1), Pair("MODIFY", 4)));
  EXPECT_EQ(stats.bugs_touching_native, 2u);
  EXPECT_EQ(stats.bugs_touching_cuda, 1u);
  EXPECT_EQ(stats.bugs_with_native_ground_truth, 1u);  // k.cu's change records no lines

  const FixSizeSummary& size = stats.fix_size;  // sizes 6, 0, 60, 1
  EXPECT_EQ(size.min, 0u);
  EXPECT_EQ(size.max, 60u);
  EXPECT_DOUBLE_EQ(size.mean, 67.0 / 4);
  EXPECT_DOUBLE_EQ(size.median, 3.5);
  EXPECT_DOUBLE_EQ(size.q1, 0.75);
  EXPECT_DOUBLE_EQ(size.q3, 19.5);
  EXPECT_EQ(size.without_lines, 1u);
  EXPECT_EQ(size.at_most_10, 2u);
  EXPECT_DOUBLE_EQ(size.share_at_most_10, 2.0 / 3);
  EXPECT_THAT(size.histogram, ElementsAre(Pair("0", 1), Pair("1-10", 2), Pair("11-50", 0),
                                          Pair("51-100", 1), Pair("101-500", 0), Pair(">500", 0)));

  EXPECT_EQ(stats.labelled_bugs, 3u);
  EXPECT_THAT(stats.bugs_per_dl_bug_type,
              ElementsAre(Pair("(annotators disagree)", 1), Pair("(not a DL bug)", 1), Pair("GPU", 1)));
  EXPECT_EQ(stats.extrinsic_bugs, 1u);
  EXPECT_EQ(stats.intrinsic_bugs, 1u);
  EXPECT_EQ(stats.extrinsic_disputed, 1u);
}

TEST(BugsetStats, EmptySet) {
  const BugsetStats stats = bugset_stats({});
  EXPECT_EQ(stats.bugs, 0u);
  EXPECT_EQ(stats.fix_size.share_at_most_10, 0.0);
  EXPECT_EQ(stats.fix_size.histogram.size(), 6u);
}

}  // namespace
}  // namespace dlfl::eval
