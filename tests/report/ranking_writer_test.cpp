// Tests for the ranking writers: exact CSV, parsed JSON, readable tables, GZoltar form.
#include "dlfl/report/ranking_writer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "dlfl/error.h"
#include "dlfl/formula.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

// Four code elements and one extrinsic one; names exercise CSV quoting.
Spectrum ranked_spectrum() {
  SpectrumBuilder b;
  b.add_element("src/a.cpp", 3, 3, "f");                    // 0  src/a.cpp#f:3
  b.add_element("src/a.cpp", 7, 7, "g(int, int)");          // 1  quoted in CSV (comma)
  b.add_element("src/b.cpp", 1, 1, "say \"hi\"");           // 2  quoted in CSV (quotes)
  b.add_element("src/c.cpp", 0);                            // 3  no line
  b.add_extrinsic("device=cuda");                           // 4
  b.add_test(TestCase::fail("t"), {0, 1, 2, 3, 4});
  return std::move(b).finish();
}

Eigen::ArrayXd scores(std::initializer_list<double> v) {
  Eigen::ArrayXd a(static_cast<Eigen::Index>(v.size()));
  Eigen::Index i = 0;
  for (const double x : v) a[i++] = x;
  return a;
}

std::string write(std::string_view format, const Spectrum& s, std::span<const FormulaRanking> r,
                  RankingWriteOptions options = {}) {
  std::ostringstream out;
  make_ranking_writer(format)->write(out, s, r, options);
  return out.str();
}

class RankingWriters : public ::testing::Test {
 protected:
  Spectrum spectrum_ = ranked_spectrum();
  // e1 first; e0, e2, e4 tie at positions 2..4 (ordered by file, line); e3 last.
  std::vector<RankedElement> ochiai_ =
      rank(scores({0.5, 1.0, 0.5, 0.0, 0.5}), spectrum_.tie_break_keys());
  std::vector<RankedElement> dstar_ =
      rank(scores({kInfiniteScore, 0.25, 0.0, 0.0, 1.0 / 3.0}), spectrum_.tie_break_keys());
};

TEST_F(RankingWriters, CsvWithTiesUnderTheAverageRule) {
  const FormulaRanking one[] = {{"ochiai", ochiai_}};
  EXPECT_EQ(write("csv", spectrum_, one),
            "rank,rank_best,rank_worst,element,file,line,function,kind,language,score\n"
            "1,1,1,\"src/a.cpp#g(int, int):7\",src/a.cpp,7,\"g(int, int)\",code,cpp,1\n"
            "3,2,4,device=cuda,,,,extrinsic,extrinsic,0.5\n"
            "3,2,4,src/a.cpp#f:3,src/a.cpp,3,f,code,cpp,0.5\n"
            "3,2,4,\"src/b.cpp#say \"\"hi\"\":1\",src/b.cpp,1,\"say \"\"hi\"\"\",code,cpp,0.5\n"
            "5,5,5,src/c.cpp,src/c.cpp,,,code,cpp,0\n");
}

TEST_F(RankingWriters, CsvRankColumnFollowsTheTieRule) {
  const FormulaRanking one[] = {{"ochiai", std::span(ochiai_).subspan(0, 2)}};
  EXPECT_NE(write("csv", spectrum_, one, {.tie_rule = TieRule::best}).find("\n2,2,4,"), std::string::npos);
  EXPECT_NE(write("csv", spectrum_, one, {.tie_rule = TieRule::worst}).find("\n4,2,4,"), std::string::npos);
  // An even tie gives a half position.
  const auto pair = rank(scores({1, 1, 0, 0, 0}), spectrum_.tie_break_keys());
  const FormulaRanking halves[] = {{"x", pair}};
  EXPECT_NE(write("csv", spectrum_, halves).find("\n1.5,1,2,"), std::string::npos);
}

TEST_F(RankingWriters, CsvNamesTheFormulaWhenSeveralAreWritten) {
  const FormulaRanking two[] = {{"ochiai", std::span(ochiai_).subspan(0, 1)},
                                {"dstar:2", std::span(dstar_).subspan(0, 2)}};
  EXPECT_EQ(write("csv", spectrum_, two),
            "formula,rank,rank_best,rank_worst,element,file,line,function,kind,language,score\n"
            "ochiai,1,1,1,\"src/a.cpp#g(int, int):7\",src/a.cpp,7,\"g(int, int)\",code,cpp,1\n"
            "dstar:2,1,1,1,src/a.cpp#f:3,src/a.cpp,3,f,code,cpp,1.7976931348623157e+308\n"
            "dstar:2,2,2,2,device=cuda,,,,extrinsic,extrinsic,0.3333333333333333\n");
  const FormulaRanking one[] = {{"ochiai", std::span(ochiai_).subspan(0, 1)}};
  EXPECT_EQ(write("csv", spectrum_, one, {.always_name_formula = true}).substr(0, 8), "formula,");
}

TEST_F(RankingWriters, ScoresReadBackExactly) {
  const FormulaRanking one[] = {{"dstar", dstar_}};
  std::istringstream csv(write("csv", spectrum_, one));
  std::string line;
  std::getline(csv, line);
  for (const auto& r : dstar_) {
    ASSERT_TRUE(std::getline(csv, line));
    EXPECT_EQ(std::stod(line.substr(line.rfind(',') + 1)), r.score) << line;
  }
}

TEST_F(RankingWriters, JsonDocumentWithTiesAndSeveralFormulas) {
  const FormulaRanking two[] = {{"ochiai", ochiai_}, {"dstar", dstar_}};
  const auto doc = nlohmann::json::parse(write("json", spectrum_, two));
  ASSERT_EQ(doc["formulas"].size(), 2u);
  const auto& ochiai = doc["formulas"][0];
  EXPECT_EQ(ochiai["formula"], "ochiai");
  EXPECT_EQ(ochiai["tie_rule"], "average");
  ASSERT_EQ(ochiai["elements"].size(), 5u);
  const auto& first = ochiai["elements"][0];
  EXPECT_EQ(first["rank"], 1);
  EXPECT_TRUE(first["rank"].is_number_integer());
  EXPECT_EQ(first["element"], "src/a.cpp#g(int, int):7");
  EXPECT_EQ(first["function"], "g(int, int)");
  EXPECT_EQ(first["line"], 7);
  EXPECT_EQ(first["kind"], "code");
  EXPECT_EQ(first["language"], "cpp");
  EXPECT_EQ(first["score"], 1.0);
  const auto& tied = ochiai["elements"][1];
  EXPECT_EQ(tied["rank"], 3);
  EXPECT_EQ(tied["rank_best"], 2);
  EXPECT_EQ(tied["rank_worst"], 4);
  EXPECT_EQ(tied["kind"], "extrinsic");
  EXPECT_EQ(tied["language"], "extrinsic");
  EXPECT_TRUE(tied["line"].is_null());
  EXPECT_EQ(tied["file"], "");
  EXPECT_EQ(doc["formulas"][1]["elements"][0]["score"].get<double>(), kInfiniteScore);
}

TEST_F(RankingWriters, JsonHalfRanksAreNumbersAndEmptyRankingsAreValid) {
  const auto pair = rank(scores({1, 1, 0, 0, 0}), spectrum_.tie_break_keys());
  const FormulaRanking two[] = {{"x", pair}, {"empty", {}}};
  const auto doc = nlohmann::json::parse(write("json", spectrum_, two));
  EXPECT_EQ(doc["formulas"][0]["elements"][0]["rank"].get<double>(), 1.5);
  EXPECT_TRUE(doc["formulas"][1]["elements"].empty());
  EXPECT_TRUE(nlohmann::json::parse(write("json", spectrum_, {}))["formulas"].empty());
}

TEST_F(RankingWriters, TableIsAlignedWithATitlePerFormula) {
  const FormulaRanking two[] = {{"ochiai", ochiai_}, {"dstar", std::span(dstar_).subspan(0, 2)}};
  EXPECT_EQ(write("table", spectrum_, two),
            "ochiai (tie rule: average, 5 elements)\n"
            "rank  best  worst  score  element\n"
            "   1     1      1  1      src/a.cpp#g(int, int):7\n"
            "   3     2      4  0.5    [extrinsic] device=cuda\n"
            "   3     2      4  0.5    src/a.cpp#f:3\n"
            "   3     2      4  0.5    src/b.cpp#say \"hi\":1\n"
            "   5     5      5  0      src/c.cpp\n"
            "\n"
            "dstar (tie rule: average, top 2 of 5 elements)\n"
            "rank  best  worst  score     element\n"
            "   1     1      1  max       src/a.cpp#f:3\n"
            "   2     2      2  0.333333  [extrinsic] device=cuda\n");
}

TEST_F(RankingWriters, GzoltarRankingFormat) {
  const FormulaRanking one[] = {{"ochiai", std::span(ochiai_).subspan(0, 2)}};
  EXPECT_EQ(write("gzoltar", spectrum_, one),
            "name;suspiciousness_value\n"
            "src/a.cpp#g(int, int):7;1\n"
            "device=cuda;0.5\n");
  const FormulaRanking two[] = {{"a", ochiai_}, {"b", dstar_}};
  EXPECT_THROW(write("gzoltar", spectrum_, two), Error);
}

TEST(RankingWriterFactory, KnowsItsFormats) {
  for (const auto name : ranking_formats()) EXPECT_NE(make_ranking_writer(name), nullptr) << name;
  EXPECT_NE(make_ranking_writer("JSON"), nullptr);
  EXPECT_THROW(make_ranking_writer("xml"), Error);
  EXPECT_EQ(tie_rule_name(TieRule::worst), "worst");
}

}  // namespace
}  // namespace dlfl::io
