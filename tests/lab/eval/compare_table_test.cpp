// Tests for compare_table.h: per-bug result tables with and without headers, column
// mapping, filters, errors with FILE:LINE; label columns and regrouping.
#include "dlfl/lab/eval/compare_table.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_stats.h"

namespace dlfl::eval {
namespace {

// Jahan et al.'s table layout: project, version, bug id, technique, faulty files, first
// rank, RR, AP.
const std::vector<std::string> kColumns{"project", "version", "bug", "technique", "n_faulty", "first_rank", "rr", "ap"};

// Options by field (designated initializers would leave fields unnamed, which -Wextra
// flags).
ResultTableOptions options(std::string group, std::vector<std::string> columns = {}, bool no_header = false,
                           std::vector<std::pair<std::string, std::string>> filters = {},
                           std::string technique = "unnamed") {
  ResultTableOptions o;
  o.group = std::move(group);
  o.columns = std::move(columns);
  o.no_header = no_header;
  o.filters = std::move(filters);
  o.technique = std::move(technique);
  return o;
}

std::string error_of(std::string_view text, const ResultTableOptions& table_options) {
  try {
    parse_result_table(text, "t.csv", table_options);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ResultTable, HeaderNamesMapToRoles) {
  const auto table = parse_result_table(
      "Project,Version,Bug_ID,Method,GTF,Top_Rank,MRR,MAP\n"
      "bottlepy+bottle,0.11.6,513,buglocator,2,1,1,0.75\n"
      "wtforms+flask-wtf,v0.14.2,278,bluir,1,0,0,0\n",
      "t.csv", options("traditional"));
  EXPECT_TRUE(table.header_skipped);
  ASSERT_EQ(table.results.size(), 2u);
  const BugResult& r = table.results[0];
  EXPECT_EQ(r.bug, "bottlepy+bottle#513");
  EXPECT_EQ(r.technique, "buglocator");
  EXPECT_EQ(r.group, "traditional");
  EXPECT_EQ(*r.n_faulty, 2.0);
  EXPECT_EQ(*r.first_rank, 1.0);
  EXPECT_EQ(*r.rr, 1.0);
  EXPECT_EQ(*r.ap, 0.75);
  EXPECT_EQ(*table.results[1].first_rank, 0.0);  // not retrieved
}

TEST(ResultTable, NoHeaderWithColumnsAndAHeaderAfterAll) {
  const ResultTableOptions mapped = options("dl", kColumns, true);
  const auto plain = parse_result_table("a+b,1.0,7,bluir,1,4,0.25,0.25\n", "t.csv", mapped);
  EXPECT_FALSE(plain.header_skipped);
  ASSERT_EQ(plain.results.size(), 1u);
  EXPECT_EQ(plain.results[0].bug, "a+b#7");
  // A first line with text in a numeric column is a header even under --no-header.
  const auto headed = parse_result_table(
      "Project,Version,Bug_ID,Method,GTF,Top_Rank,MRR,MAP\na+b,1.0,7,bluir,1,4,0.25,0.25\n", "t.csv", mapped);
  EXPECT_TRUE(headed.header_skipped);
  EXPECT_EQ(headed.results.size(), 1u);
}

TEST(ResultTable, ColumnsReplaceAHeaderAndExtraColumnsAreKept) {
  // BLIA's DL table: a header of numbers, RR and AP only, no technique column.
  const auto blia = parse_result_table("6,8,11,12\nx+y,180,0.857,0.5\n", "t.csv",
                                       options("dl", {"project", "bug", "rr", "ap"}, false, {}, "BLIA"));
  ASSERT_EQ(blia.results.size(), 1u);
  EXPECT_EQ(blia.results[0].technique, "BLIA");
  EXPECT_EQ(blia.results[0].bug, "x+y#180");
  EXPECT_FALSE(blia.results[0].first_rank);
  // dlfl eval's CSV: extra numeric columns become metrics, text ones filterable.
  const auto eval = parse_result_table(
      "bug,technique,level,ties,first_rank,exam,e_inspect,ap,rr\n"
      "p#1,ochiai,file,average,2,0.25,2,0.5,0.5\n"
      "p#1,ochiai,line,average,0,,,0,0\n",
      "t.csv", options("g", {}, false, {{"level", "file"}}));
  EXPECT_EQ(eval.filtered_out, 1u);
  ASSERT_EQ(eval.results.size(), 1u);
  EXPECT_EQ(eval.results[0].bug, "p#1");
  EXPECT_EQ(eval.results[0].extra.at("exam"), 0.25);
  EXPECT_FALSE(eval.results[0].extra.contains("level"));
}

TEST(ResultTable, ErrorsNameFileAndLine) {
  const ResultTableOptions mapped = options("g", kColumns, true);
  EXPECT_EQ(error_of("a,1,7,bl,1,4,0.25,0.25\na,1,8,bl,1,x,0.25,0.25\n", mapped),
            "t.csv:2: first_rank 'x' is not a number");
  EXPECT_EQ(error_of("a,1,7,bl,1,4,1.25,0.25\n", mapped), "t.csv:1: rr 1.25 is outside [0, 1]");
  EXPECT_EQ(error_of("a,1,7,bl,1,-4,0.25,0.25\n", mapped), "t.csv:1: first rank -4 is negative");
  EXPECT_EQ(error_of("a,1,7,bl,1,4,0.25\n", mapped), "t.csv:1: row has 7 fields, expected 8");
  EXPECT_EQ(error_of("a,1,,bl,1,4,0.25,0.25\n", mapped), "t.csv:1: empty bug id");
  EXPECT_EQ(error_of("x,y\n1,2\n", options("g")), "t.csv:1: no bug column (expected one named bug, bug_id or id)");
  EXPECT_EQ(error_of("a\n", options("g", {}, true)),
            "t.csv: a table without a header needs its columns named (--columns)");
  EXPECT_EQ(error_of("bug,rr\n1,0.5\n", options("g", {}, false, {{"level", "file"}})),
            "t.csv:1: no column 'level' to filter on");
  EXPECT_EQ(error_of("bug,rr,mrr\n1,0.5,0.5\n", options("g")),
            "t.csv:1: columns 'rr' and 'mrr' both name the rr column");
}

class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("dlfl-labels-" + std::to_string(rd()) + ".csv");
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(LabelColumn, PlainColumnAndAnnotatorAgreement) {
  const TempFile labels(
      "id,category,kind_a1,kind_a2\n"
      "p#1,Framework,x,x\n"
      "p#2,,x,y\n"
      "p#3,Tool,,\n");
  const LabelColumn category = read_label_column(labels.path(), "category");
  EXPECT_EQ(category.by_bug.at("p#1"), "Framework");
  EXPECT_EQ(category.by_bug.at("p#2"), no_label_value);
  const LabelColumn kind = read_label_column(labels.path(), "kind");
  EXPECT_EQ(kind.by_bug.at("p#1"), "x");
  EXPECT_EQ(kind.by_bug.at("p#2"), disputed_key);
  EXPECT_EQ(kind.by_bug.at("p#3"), no_label_value);
  EXPECT_THROW(read_label_column(labels.path(), "severity"), Error);
  EXPECT_THROW(read_label_column(labels.path(), "category", "bug"), Error);
}

TEST(LabelColumn, JahanColumnsUseTheAgreedLabels) {
  const TempFile labels(
      "dataset,id,dl_bug_a1,dl_bug_type_a1,extrinsic_a1,intrinsic_a1,dl_bug_a2,dl_bug_type_a2,extrinsic_a2,intrinsic_a2\n"
      "denchmark,p#1,1,Tensor,0,1,1,Tensor & Input,0,1\n"
      "denchmark,p#2,0,,1,0,0,,1,0\n"
      "bugl,q#3,,,0,1,,,1,0\n");
  const LabelColumn type = read_label_column(labels.path(), "dl_bug_type");
  EXPECT_EQ(type.by_bug.at("p#1"), "Tensor & Input");  // "Tensor" is the same type
  EXPECT_EQ(type.by_bug.at("p#2"), not_dl_bug_key);
  const LabelColumn extrinsic = read_label_column(labels.path(), "extrinsic");
  EXPECT_EQ(extrinsic.by_bug.at("p#1"), "intrinsic");
  EXPECT_EQ(extrinsic.by_bug.at("p#2"), "extrinsic");
  EXPECT_EQ(extrinsic.by_bug.at("q#3"), disputed_key);
  EXPECT_EQ(read_label_column(labels.path(), "dl_bug").by_bug.at("p#1"), "DL");
}

TEST(LabelColumn, RegroupPoolsOrSplitsGroups) {
  LabelColumn labels;
  labels.by_bug = {{"p#1", "GPU"}, {"p#2", "API"}};
  BugResult a, b, c;
  a.bug = "p#1", a.group = "dl";
  b.bug = "p#2", b.group = "dl";
  c.bug = "p#9", c.group = "dl";
  const std::vector<BugResult> results{a, b, c};
  const Regrouped pooled = regroup_by_label(results, labels, false);
  ASSERT_EQ(pooled.results.size(), 2u);
  EXPECT_EQ(pooled.results[0].group, "GPU");
  EXPECT_EQ(pooled.unlabelled.at("dl"), 1u);
  EXPECT_EQ(regroup_by_label(results, labels, true).results[1].group, "dl/API");
}

}  // namespace
}  // namespace dlfl::eval
