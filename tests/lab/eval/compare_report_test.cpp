// Tests for compare_report.h: the JSON document scripts rely on, the CSV sections, the
// table, and the chart built from a comparison.
#include "dlfl/lab/eval/compare_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

namespace dlfl::eval {
namespace {

Comparison small_comparison() {
  std::vector<BugResult> rows;
  const auto add = [&](std::string bug, std::string technique, std::string group, double rank, double ap) {
    BugResult r;
    r.bug = std::move(bug);
    r.technique = std::move(technique);
    r.group = std::move(group);
    r.first_rank = rank;
    r.ap = ap;
    rows.push_back(std::move(r));
  };
  // RR 1, 1/2, 1/4 (traditional) against 1/2, 0, 1/10 (dl), for technique t.
  add("a", "t", "traditional", 1, 1);
  add("b", "t", "traditional", 2, 0.5);
  add("c", "t", "traditional", 4, 0.25);
  add("d", "t", "dl", 2, 0.5);
  add("e", "t", "dl", 0, 0);
  add("f", "t", "dl", 10, 0.1);
  return compare(rows);
}

std::string write(const Comparison& c, ComparisonFormat format) {
  std::ostringstream out;
  write_comparison(out, c, format);
  return out.str();
}

TEST(CompareReport, JsonHasTheDocumentedShape) {
  const auto doc = nlohmann::json::parse(write(small_comparison(), ComparisonFormat::json));
  ASSERT_EQ(doc["groups"].size(), 2u);
  const auto& g = doc["groups"][0];
  EXPECT_EQ(g["technique"], "t");
  EXPECT_EQ(g["group"], "traditional");
  EXPECT_EQ(g["n"], 3);
  EXPECT_DOUBLE_EQ(g["top1"].get<double>(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(g["top5"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(g["top10"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(g["mrr"].get<double>(), (1 + 0.5 + 0.25) / 3);
  EXPECT_DOUBLE_EQ(g["map"].get<double>(), (1 + 0.5 + 0.25) / 3);
  EXPECT_DOUBLE_EQ(doc["groups"][1]["top10"].get<double>(), 2.0 / 3);  // rank 0 is no hit
  ASSERT_EQ(doc["tests"].size(), 2u);
  const auto& t = doc["tests"][0];
  EXPECT_EQ(t["technique"], "t");
  EXPECT_EQ(t["metric"], "mrr");
  EXPECT_EQ(t["groups"], nlohmann::json::array({"traditional", "dl"}));
  for (const char* key : {"p_student", "p_welch", "p_mannwhitney", "cohens_d", "cliffs_delta"})
    EXPECT_TRUE(t[key].is_number()) << key;
  // (7/12 − 1/5) / (7/12) × 100
  EXPECT_NEAR(t["performance_diff"].get<double>(), (7.0 / 12 - 0.2) / (7.0 / 12) * 100, 1e-12);
  EXPECT_TRUE(doc["paired"].empty());  // one technique
}

TEST(CompareReport, UndefinedValuesAreNullInJsonAndNaInTables) {
  std::vector<BugResult> rows(2);
  rows[0].bug = "a", rows[0].technique = "t", rows[0].group = "x", rows[0].rr = 0.5;
  rows[1].bug = "b", rows[1].technique = "t", rows[1].group = "y", rows[1].rr = 1;
  ComparisonOptions options;
  options.metrics = {"mrr"};
  const Comparison c = compare(rows, options);
  const auto doc = nlohmann::json::parse(write(c, ComparisonFormat::json));
  EXPECT_TRUE(doc["groups"][0]["top1"].is_null());  // no ranks
  EXPECT_TRUE(doc["groups"][0]["map"].is_null());
  EXPECT_TRUE(doc["tests"][0]["p_student"].is_null());  // one bug a group
  const std::string table = write(c, ComparisonFormat::table);
  EXPECT_NE(table.find("n/a"), std::string::npos);
  const std::string csv = write(c, ComparisonFormat::csv);
  EXPECT_EQ(csv.rfind("technique,group,n,top1,top5,top10,mrr,map,sw_p:mrr\n", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n\ntechnique,metric,a,b,n_a,n_b,mean_a,mean_b,diff%,p_student"), std::string::npos);
}

TEST(CompareReport, TableAndChart) {
  const Comparison c = small_comparison();
  const std::string table = write(c, ComparisonFormat::table);
  EXPECT_NE(table.find("technique  group        n   top1   top5  top10    mrr    map"), std::string::npos) << table;
  EXPECT_NE(table.find("t          traditional  3  0.333  1.000  1.000  0.583  0.583"), std::string::npos) << table;
  const BarChart chart = comparison_chart(c);
  ASSERT_EQ(chart.panels.size(), 2u);
  EXPECT_EQ(chart.panels[0].title, "MRR");
  EXPECT_EQ(chart.panels[0].categories, std::vector<std::string>{"t"});
  ASSERT_EQ(chart.panels[0].series.size(), 2u);
  EXPECT_EQ(chart.panels[0].series[1].name, "dl");
  EXPECT_DOUBLE_EQ(chart.panels[0].series[1].values[0], 0.2);  // (1/2 + 0 + 1/10) / 3
  EXPECT_EQ(write(c, ComparisonFormat::svg).rfind("<?xml", 0), 0u);
  EXPECT_EQ(parse_comparison_format("SVG"), ComparisonFormat::svg);
  EXPECT_FALSE(parse_comparison_format("html"));
}

}  // namespace
}  // namespace dlfl::eval
