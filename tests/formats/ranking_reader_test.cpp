// Tests for the ranking readers: round trips through dlfl's writers (csv, json, gzoltar),
// GZoltar's Java names, format detection, and FILE:LINE errors on bad input.
#include "dlfl/formats/ranking_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "dlfl/error.h"
#include "dlfl/formula.h"
#include "dlfl/report/ranking_writer.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

// The writer tests' spectrum: names with commas, quotes, no line, and an extrinsic element.
Spectrum spectrum_to_rank() {
  SpectrumBuilder b;
  b.add_element("src/a.cpp", 3, 3, "f");              // 0  src/a.cpp#f:3
  b.add_element("src/a.cpp", 7, 9, "g(int, int)");    // 1  spans lines 7..9
  b.add_element("src/b.cpp", 1, 1, "say \"hi\"");     // 2
  b.add_element("src/c.cpp", 0);                      // 3  a whole file
  b.add_extrinsic("device=cuda");                     // 4
  b.add_test(TestCase::fail("t"), {0, 1, 2, 3, 4});
  return std::move(b).finish();
}

Eigen::ArrayXd scores(std::initializer_list<double> v) {
  Eigen::ArrayXd a(static_cast<Eigen::Index>(v.size()));
  Eigen::Index i = 0;
  for (const double x : v) a[i++] = x;
  return a;
}

class RankingRoundTrip : public ::testing::Test {
 protected:
  std::string write(std::string_view format, std::span<const FormulaRanking> rankings) const {
    std::ostringstream out;
    make_ranking_writer(format)->write(out, spectrum_, rankings, {});
    return out.str();
  }

  // Every element read back names the spectrum element the writer wrote, with its score.
  void expect_same(const ReadRanking& read, std::span<const RankedElement> written,
                   bool has_last_line) const {
    ASSERT_EQ(read.elements.size(), written.size());
    for (std::size_t i = 0; i < written.size(); ++i) {
      const auto& e = read.elements[i];
      const auto id = written[i].element;
      const auto& record = spectrum_.element(id);
      SCOPED_TRACE(spectrum_.element_name(id));
      EXPECT_EQ(e.key, spectrum_.element_name(id));
      EXPECT_EQ(e.score, written[i].score);  // shortest round-trip text: exact
      if (record.kind == ElementKind::extrinsic) {
        EXPECT_TRUE(e.file.empty());
        continue;
      }
      EXPECT_EQ(e.file, spectrum_.file(id));
      EXPECT_EQ(e.function, spectrum_.function(id));
      EXPECT_EQ(e.first_line, record.first_line);
      if (has_last_line) {
        EXPECT_EQ(e.end_line(), record.last_line);
      }
    }
  }

  Spectrum spectrum_ = spectrum_to_rank();
  std::vector<RankedElement> ochiai_ =
      rank(scores({0.5, 1.0, 0.5, 0.0, 0.5}), spectrum_.tie_break_keys());
  std::vector<RankedElement> dstar_ =
      rank(scores({kInfiniteScore, 0.25, 0.0, 0.0, 1.0 / 3.0}), spectrum_.tie_break_keys());
};

TEST_F(RankingRoundTrip, CsvOneFormula) {
  const FormulaRanking one[] = {{"ochiai", ochiai_}};
  const std::string text = write("csv", one);
  EXPECT_EQ(detect_ranking_format(text, "r.csv"), RankingFileFormat::csv);
  const auto read = parse_rankings(text, RankingFileFormat::csv, "r.csv");
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].formula, "");  // one ranking: the CSV does not name it
  expect_same(read[0], ochiai_, false);
}

TEST_F(RankingRoundTrip, CsvSeveralFormulasKeepTheirOrder) {
  const FormulaRanking two[] = {{"ochiai", ochiai_}, {"dstar:2", dstar_}};
  const auto read = parse_rankings(write("csv", two), RankingFileFormat::csv, "r.csv");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].formula, "ochiai");
  EXPECT_EQ(read[1].formula, "dstar:2");
  expect_same(read[0], ochiai_, false);
  expect_same(read[1], dstar_, false);
  EXPECT_EQ(read[1].elements[0].score, kInfiniteScore);
}

TEST_F(RankingRoundTrip, JsonKeepsLastLines) {
  const FormulaRanking two[] = {{"ochiai", ochiai_}, {"dstar", dstar_}};
  const std::string text = write("json", two);
  EXPECT_EQ(detect_ranking_format(text, "r.json"), RankingFileFormat::json);
  const auto read = parse_rankings(text, RankingFileFormat::json, "r.json");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].formula, "ochiai");
  EXPECT_EQ(read[1].formula, "dstar");
  expect_same(read[0], ochiai_, true);
  expect_same(read[1], dstar_, true);
}

TEST_F(RankingRoundTrip, GzoltarTakesTheFormulaFromTheFileName) {
  iotest::TempDir dir;
  const FormulaRanking one[] = {{"ochiai", ochiai_}};
  iotest::write_file(dir / "ochiai.ranking.csv", write("gzoltar", one));
  const auto read = read_rankings(dir / "ochiai.ranking.csv");
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].formula, "ochiai");
  // The name alone cannot tell the extrinsic element: it reads as a file called
  // `device=cuda`, which no fault names. Everything else comes back from the name.
  ASSERT_EQ(read[0].elements.size(), ochiai_.size());
  for (std::size_t i = 0; i < ochiai_.size(); ++i) {
    const auto id = ochiai_[i].element;
    EXPECT_EQ(read[0].elements[i].key, spectrum_.element_name(id));
    EXPECT_EQ(read[0].elements[i].score, ochiai_[i].score);
    if (spectrum_.element(id).kind == ElementKind::code) {
      EXPECT_EQ(read[0].elements[i].file, spectrum_.file(id));
      EXPECT_EQ(read[0].elements[i].function, spectrum_.function(id));
      EXPECT_EQ(read[0].elements[i].first_line, spectrum_.element(id).first_line);
    }
  }
}

TEST_F(RankingRoundTrip, ReadRankingsDetectsEachFormat) {
  iotest::TempDir dir;
  const FormulaRanking one[] = {{"ochiai", ochiai_}};
  for (const std::string format : {"csv", "json", "gzoltar"}) {
    const auto path = dir / ("ranking." + format);
    iotest::write_file(path, write(format, one));
    const auto read = read_rankings(path);
    ASSERT_EQ(read.size(), 1u) << format;
    EXPECT_EQ(read[0].elements.size(), ochiai_.size()) << format;
  }
}

TEST(ElementFromName, CppNames) {
  const auto line = element_from_name("torch/csrc/a.cpp#at::native::softmax(Tensor const&):42");
  EXPECT_EQ(line.file, "torch/csrc/a.cpp");
  EXPECT_EQ(line.function, "at::native::softmax(Tensor const&)");
  EXPECT_EQ(line.first_line, 42u);
  const auto function = element_from_name("a.cpp#ns::f");
  EXPECT_EQ(function.function, "ns::f");
  EXPECT_EQ(function.first_line, 0u);
  const auto file = element_from_name("src/conv.cu");
  EXPECT_TRUE(file.is_whole_file());
  EXPECT_EQ(file.file, "src/conv.cu");
  const auto no_function = element_from_name("src/conv.cu:17");
  EXPECT_EQ(no_function.file, "src/conv.cu");
  EXPECT_EQ(no_function.first_line, 17u);
}

TEST(ElementFromName, JavaNamesBecomeTheOuterClassFile) {
  const auto e = element_from_name("org.jfree.chart$ChartPanel$Inner#paint(java.awt.Graphics):37");
  EXPECT_EQ(e.key, "org.jfree.chart$ChartPanel$Inner#paint(java.awt.Graphics):37");
  EXPECT_EQ(e.file, "org/jfree/chart/ChartPanel.java");
  EXPECT_EQ(e.function, "ChartPanel.Inner.paint(java.awt.Graphics)");
  EXPECT_EQ(e.first_line, 37u);
  const auto default_package = element_from_name("$Main#main(java.lang.String[]):3");
  EXPECT_EQ(default_package.file, "Main.java");
  const auto class_level = element_from_name("org.x$Y:12");
  EXPECT_EQ(class_level.file, "org/x/Y.java");
  EXPECT_TRUE(class_level.function.empty());
}

TEST(RankingReader, CsvWithoutFileColumnsParsesNamesAndNanIsUnscored) {
  const auto read = parse_rankings("element,score\r\na.cpp#f:3,0.5\r\nb.cpp#g:9,NaN\r\n",
                                   RankingFileFormat::csv, "r.csv");
  ASSERT_EQ(read[0].elements.size(), 2u);
  EXPECT_EQ(read[0].elements[0].function, "f");
  EXPECT_EQ(read[0].elements[0].first_line, 3u);
  EXPECT_TRUE(std::isnan(read[0].elements[1].score));
}

TEST(RankingReader, JsonNullScoreIsUnscored) {
  const auto read = parse_rankings(
      R"({"formulas":[{"formula":"x","elements":[{"element":"a.cpp:1","score":null}]}]})",
      RankingFileFormat::json, "r.json");
  EXPECT_TRUE(std::isnan(read[0].elements[0].score));
  EXPECT_EQ(read[0].elements[0].first_line, 1u);
}

// The message of the dlfl::Error that parsing `text` throws.
std::string error_of(std::string_view text, RankingFileFormat format) {
  try {
    parse_rankings(text, format, "r");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RankingReader, ErrorsNameFileAndLine) {
  using F = RankingFileFormat;
  EXPECT_EQ(error_of("element,score\na,1\nb,high\n", F::csv), "r:3: score 'high' is not a number");
  EXPECT_EQ(error_of("element,score\na,1,2\n", F::csv), "r:2: row has 3 fields, the header 2");
  EXPECT_EQ(error_of("element,score\n\"a,1\n", F::csv), "r:2: quoted field is never closed");
  EXPECT_EQ(error_of("rank,element\n1,a\n", F::csv),
            "r:1: header lacks the 'score' column (expected [formula,]rank,rank_best,rank_worst,"
            "element,file,line,function,kind,score)");
  EXPECT_EQ(error_of("element,file,line,score\na,a.cpp,0,1\n", F::csv),
            "r:2: line '0' is not a positive line number");
  EXPECT_EQ(error_of("element,score\n,1\n", F::csv), "r:2: empty element name");
  EXPECT_EQ(error_of("element,score\n", F::csv), "r: the ranking holds no element");
  EXPECT_EQ(error_of("name;suspiciousness_value\na#f:1;0.5\nb#g:2\n", F::gzoltar),
            "r:3: expected 'name;suspiciousness_value'");
  EXPECT_EQ(error_of("name,score\n", F::gzoltar),
            "r:1: expected the GZoltar ranking header 'name;suspiciousness_value'");
  EXPECT_EQ(error_of("{\"formulas\": [\n{\"elements\": [\n{\"element\": \"a\", \"score\": 1},\n"
                     "{\"element\": \"b\"}\n]}]}",
                     F::json),
            "r:4: formulas[0].elements[1]: no score");
  EXPECT_EQ(error_of("{\"formulas\": [\n{\"elements\": [\n{\"element\": \"a\", \"score\": \"x\"}]}]}",
                     F::json),
            "r:3: formulas[0].elements[0]: score is not a number");
  const std::string invalid = error_of("{\"formulas\": [\n{\"elements\": [,]}]}", F::json);
  EXPECT_EQ(invalid.substr(0, 19), "r:2: invalid JSON: ") << invalid;
}

TEST(RankingReader, DetectionRejectsOtherFiles) {
  EXPECT_EQ(detect_ranking_format("name;suspiciousness_value\n", "r"), RankingFileFormat::gzoltar);
  EXPECT_EQ(detect_ranking_format("\n  {\"formulas\": []}", "r"), RankingFileFormat::json);
  EXPECT_THROW(detect_ranking_format("rank,element\n", "r"), Error);
  EXPECT_THROW(detect_ranking_format("", "r"), Error);
  EXPECT_EQ(parse_ranking_file_format("GZoltar"), RankingFileFormat::gzoltar);
  EXPECT_FALSE(parse_ranking_file_format("table"));
}

}  // namespace
}  // namespace dlfl::io
