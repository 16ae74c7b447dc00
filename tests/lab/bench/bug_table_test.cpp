// The per-bug CSV is what `dlfl compare` reads: the compare reader takes it as is, and
// the group column serves as a label column for `--by group`.
#include "dlfl/lab/bench/bug_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "../../support/test_files.h"
#include "bench_test_support.h"
#include "dlfl/lab/bench/bench_summary.h"
#include "dlfl/lab/eval/compare_table.h"

namespace dlfl::bench {
namespace {

using testing::discarded_fault;
using testing::kept_fault;

eval::ResultTableOptions grouped(const std::string& group, std::vector<std::pair<std::string, std::string>> filters = {}) {
  eval::ResultTableOptions options;
  options.group = group;
  options.filters = std::move(filters);
  return options;
}

std::vector<FaultRecord> records() {
  return {kept_fault("tensorlite", "t1", "tensor", 1), kept_fault("tensorlite", "t2", "gpu", 4),
          discarded_fault("tensorlite", "t3", "no test fails"), kept_fault("confeval", "c1", "traditional", 12)};
}

TEST(BugTable, CompareReaderTakesItAsIs) {
  std::ostringstream csv;
  write_bug_table(csv, records(), {1, 3, 5, 10});
  const auto table = eval::parse_result_table(csv.str(), "results.csv", grouped("bench"));
  ASSERT_EQ(table.results.size(), 6u);  // 3 kept faults x 2 formulas; the discarded one has no row
  const auto& first = table.results[0];
  EXPECT_EQ(first.bug, "tensorlite#t1");
  EXPECT_EQ(first.technique, "ochiai");
  EXPECT_EQ(first.first_rank, 1.0);
  EXPECT_EQ(first.rr, 1.0);
  EXPECT_EQ(first.n_faulty, 1.0);
  EXPECT_DOUBLE_EQ(first.extra.at("exam"), 0.01);
  EXPECT_EQ(first.extra.at("top1"), 1.0);
  const auto& last = table.results[5];
  EXPECT_EQ(last.bug, "confeval#c1");
  EXPECT_EQ(last.technique, "dstar2");
  EXPECT_EQ(last.first_rank, 13.0);
  EXPECT_EQ(last.extra.at("top10"), 0.0);
  // Text columns filter: the groups and bug types are there.
  const auto dl = eval::parse_result_table(csv.str(), "results.csv", grouped("x", {{"group", "dl"}}));
  EXPECT_EQ(dl.results.size(), 4u);
  const auto gpu = eval::parse_result_table(csv.str(), "results.csv", grouped("x", {{"bug_type", "gpu"}}));
  EXPECT_EQ(gpu.results.size(), 2u);
}

TEST(BugTable, GroupColumnIsALabelColumnForCompareBy) {
  dlfl::testing::TempDir dir("bench-table");
  std::ostringstream csv;
  write_bug_table(csv, records(), {1, 3, 5, 10});
  dlfl::testing::write_text(dir / "results.csv", csv.str());
  const auto labels = eval::read_label_column(dir / "results.csv", "group", "bug");
  EXPECT_TRUE(labels.warnings.empty());
  EXPECT_EQ(labels.by_bug.at("tensorlite#t2"), "dl");
  EXPECT_EQ(labels.by_bug.at("confeval#c1"), "traditional");
  const auto table = eval::read_result_table(dir / "results.csv", grouped("bench"));
  const auto regrouped = eval::regroup_by_label(table.results, labels, false);
  const auto comparison = eval::compare(regrouped.results);
  EXPECT_EQ(comparison.groups, (std::vector<std::string>{"dl", "traditional"}));
}

TEST(BugTable, DiscardedTableListsReasons) {
  std::ostringstream csv;
  write_discarded_table(csv, records());
  EXPECT_EQ(csv.str(),
            "project,bug,bug_type,operator,file,line,reason,detail,tail\n"
            "tensorlite,tensorlite#t3,traditional,delete_statement,src/x.cpp,3,no test fails,,\n");
}

TEST(BenchSummary, TablesPerFormulaGroupAndBugType) {
  std::vector<FaultRecord> all = records();
  for (int i = 0; i < 4; ++i) {
    all.push_back(kept_fault("tensorlite", "more" + std::to_string(i), "training", 2 + i));
    all.push_back(kept_fault("confeval", "more" + std::to_string(i), "traditional", 20 + i));
  }
  const auto results = bug_results(all, {1, 3, 5, 10}, false);
  EXPECT_EQ(results.size(), 2u * 11u);
  std::ostringstream out;
  write_summary(out, all, {});
  const std::string text = out.str();
  EXPECT_THAT(text, ::testing::HasSubstr("12 faults seeded, 11 kept, 1 discarded"));
  EXPECT_THAT(text, ::testing::HasSubstr("discarded: no test fails 1"));
  // ochiai on the DL faults: ranks 1, 4, 2, 3, 4, 5 -> Top-1 = 1/6.
  EXPECT_THAT(text, ::testing::HasSubstr("| ochiai | dl | 6 | 0.167 |"));
  EXPECT_THAT(text, ::testing::HasSubstr("| ochiai | traditional | 5 | 0.000 |"));
  EXPECT_THAT(text, ::testing::HasSubstr("Mann-Whitney"));
  EXPECT_THAT(text, ::testing::HasSubstr("| dstar2 | training | 4 |"));
}

}  // namespace
}  // namespace dlfl::bench
