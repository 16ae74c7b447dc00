// Tests for evaluation_report.h: per-bug metric rows in CSV (what `dlfl compare` reads),
// the table, and JSON, on a hand-worked ranking with a tie.
#include "dlfl/lab/eval/evaluation_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

EvaluationOptions top(std::vector<std::uint64_t> n) {
  EvaluationOptions options;
  options.top_n = std::move(n);
  return options;
}

// a.cpp lines 1..5 scored 0.9 | 0.5 0.5 0.5 | 0.1; the fault is line 3, inside the tie at
// positions 2..4: first rank 2 (best), 4 (worst), 3 (average: E_inspect = 2 + 2/2).
BugEvaluation worked() {
  std::vector<ScoredElement> ranking;
  const double scores[] = {0.9, 0.5, 0.5, 0.5, 0.1};
  for (std::uint32_t line = 1; line <= 5; ++line)
    ranking.push_back({"a.cpp:" + std::to_string(line), "a.cpp", "", line, 0, scores[line - 1]});
  const std::vector<GroundTruthItem> faults{{"a.cpp", 3, ""}};
  return {"p#1", "ochiai", Granularity::line, evaluate(ranking, faults, top({1, 3}))};
}

std::string write(std::span<const BugEvaluation> e, std::vector<TieRule> rules, EvaluationFormat format) {
  std::ostringstream out;
  write_evaluations(out, e, rules, format);
  return out.str();
}

TEST(EvaluationReport, CsvRowsPerTieRule) {
  const BugEvaluation e[] = {worked()};
  // E[1/position] over the tie = (1/2 + 1/3 + 1/4) / 3 = 13/36; one fault: AP = RR.
  // P(hit within 3) = 2/3, computed as 1 − 1/3 (hence the last digit).
  EXPECT_EQ(write(e, {TieRule::best, TieRule::worst, TieRule::average}, EvaluationFormat::csv),
            "bug,technique,level,ties,elements,n_faulty,missing_faulty,found,first_rank,exam,top1,top3,"
            "e_inspect,wasted_effort,ap,rr\n"
            "p#1,ochiai,line,best,5,1,0,1,2,0.4,0,1,3,2,0.5,0.5\n"
            "p#1,ochiai,line,worst,5,1,0,1,4,0.8,0,0,3,2,0.25,0.25\n"
            "p#1,ochiai,line,average,5,1,0,1,3,0.6,0,0.6666666666666667,3,2,0.3611111111111111,"
            "0.3611111111111111\n");
}

TEST(EvaluationReport, NotFoundIsRankZeroAndEmptyPositions) {
  BugEvaluation e = worked();
  e.metrics = evaluate(std::vector<ScoredElement>{{"b.cpp:1", "b.cpp", "", 1, 0, 1.0}},
                       std::vector<GroundTruthItem>{{"a.cpp", 3, ""}}, top({1}));
  const BugEvaluation list[] = {e};
  EXPECT_EQ(write(list, {TieRule::best}, EvaluationFormat::csv),
            "bug,technique,level,ties,elements,n_faulty,missing_faulty,found,first_rank,exam,top1,"
            "e_inspect,wasted_effort,ap,rr\n"
            "p#1,ochiai,line,best,1,1,1,0,0,,0,,,0,0\n");
  const auto doc = nlohmann::json::parse(write(list, {TieRule::best}, EvaluationFormat::json));
  EXPECT_TRUE(doc["evaluations"][0]["e_inspect"].is_null());
  EXPECT_EQ(doc["evaluations"][0]["best"]["first_rank"], 0);
  EXPECT_NE(write(list, {TieRule::best}, EvaluationFormat::table).find(" - "), std::string::npos);
}

TEST(EvaluationReport, JsonAndTable) {
  const BugEvaluation e[] = {worked()};
  const auto doc = nlohmann::json::parse(write(e, {TieRule::worst, TieRule::average}, EvaluationFormat::json));
  const auto& item = doc["evaluations"][0];
  EXPECT_EQ(item["bug"], "p#1");
  EXPECT_EQ(item["level"], "line");
  EXPECT_EQ(item["e_inspect"], 3.0);
  EXPECT_EQ(item["worst"]["first_rank"], 4.0);
  EXPECT_DOUBLE_EQ(item["average"]["top3"].get<double>(), 2.0 / 3);
  EXPECT_FALSE(item.contains("best"));
  const std::string table = write(e, {TieRule::average}, EvaluationFormat::table);
  EXPECT_NE(table.find("p#1  ochiai     line   average"), std::string::npos) << table;
  EXPECT_NE(table.find("0.3611"), std::string::npos) << table;
  EXPECT_THROW(write(e, {}, EvaluationFormat::csv), Error);
}

}  // namespace
}  // namespace dlfl::eval
