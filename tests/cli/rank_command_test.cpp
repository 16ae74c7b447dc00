// `dlfl rank` end to end: formats, options, and errors on bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kExample = source_path("examples/spectra/softmax");

TEST(RankCommand, PutsTheFaultyLineOfTheExampleFirst) {
  const RunResult r = run_dlfl("rank " + kExample + " --top 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("ochiai"));
  const auto first_row = r.out.find("src/ops/softmax.cpp#softmax:24");
  ASSERT_NE(first_row, std::string::npos);
  EXPECT_LT(first_row, r.out.find("softmax.cpp#softmax:20"));
}

TEST(RankCommand, CsvHasTheDocumentedHeaderAndOneRowPerElement) {
  const RunResult r = run_dlfl("rank " + kExample + " --format csv --ties best");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  EXPECT_THAT(header, StartsWith("rank,rank_best,rank_worst,element,file,line,function"));
  EXPECT_THAT(header, HasSubstr("score"));
  EXPECT_THAT(header, ::testing::EndsWith("score,ef,ep,nf,np"));
  // Line 24: run by both failing tests and no passing one (of six).
  EXPECT_EQ(first, "1,1,1,src/ops/softmax.cpp#softmax:24,src/ops/softmax.cpp,24,softmax,code,cpp,1,2,0,0,6");
  int rows = 1;
  for (std::string line; std::getline(in, line);) ++rows;
  EXPECT_EQ(rows, 12);
}

TEST(RankCommand, SeveralFormulasAddAFormulaColumn) {
  const RunResult r = run_dlfl("rank " + kExample + " --format csv -f ochiai -f dstar3 -f 'ef - ep' --top 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("formula,rank,"));
  EXPECT_THAT(r.out, HasSubstr("\ndstar3,1,1,1,src/ops/softmax.cpp#softmax:24"));
  EXPECT_THAT(r.out, HasSubstr("\nef - ep,1,1,1,src/ops/softmax.cpp#softmax:24"));
}

TEST(RankCommand, JsonCarriesTiePositions) {
  const RunResult r = run_dlfl("rank " + kExample + " --format json --ties worst");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& elements = doc["formulas"][0]["elements"];
  ASSERT_EQ(elements.size(), 12u);
  EXPECT_EQ(doc["formulas"][0]["tie_rule"], "worst");
  // softmax lines 20, 21, 23, 26 tie at positions 2..5.
  EXPECT_EQ(elements[1]["rank_best"], 2);
  EXPECT_EQ(elements[1]["rank_worst"], 5);
  EXPECT_EQ(elements[1]["rank"], 5);
  EXPECT_EQ(elements[1]["file"], "src/ops/softmax.cpp");
  EXPECT_EQ(elements[0]["ef"], 2);  // line 24: both failing tests, no passing one
  EXPECT_EQ(elements[0]["ep"], 0);
  EXPECT_EQ(elements[0]["nf"], 0);
  EXPECT_EQ(elements[0]["np"], 6);
}

TEST(RankCommand, FunctionAndFileGranularity) {
  const RunResult fn = run_dlfl("rank " + kExample + " --granularity function --format csv");
  ASSERT_EQ(fn.exit_code, 0) << fn.err;
  EXPECT_THAT(fn.out, HasSubstr("\n1,1,1,src/ops/softmax.cpp#softmax:20,src/ops/softmax.cpp,20,softmax,code,"));
  const RunResult file = run_dlfl("rank " + kExample + " -g file --format csv");
  ASSERT_EQ(file.exit_code, 0) << file.err;
  int rows = -1;
  std::istringstream in(file.out);
  for (std::string line; std::getline(in, line);) ++rows;
  EXPECT_EQ(rows, 4);  // tensor.cpp, softmax.cpp, loss.cpp, matmul.cpp
}

TEST(RankCommand, MaxAggregationKeepsTheBestLineScore) {
  // softmax's best line (24) scores 1 with Ochiai; aggregated coverage would give 0.63.
  const RunResult r = run_dlfl("rank " + kExample + " -g function --aggregate max --format csv --top 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(",softmax,code,cpp,1,"));
}

TEST(RankCommand, WritesTheOutputFile) {
  TempDir dir;
  const RunResult r = run_dlfl("rank " + kExample + " --format csv -o " + (dir / "r.csv").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(slurp(dir / "r.csv"), StartsWith("rank,"));
  EXPECT_TRUE(r.out.empty());
}

// Copies the example into a temp dir and breaks one file.
class BrokenInput : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* f : {"matrix.txt", "spectra.csv", "tests.csv"})
      std::filesystem::copy_file(kExample + "/" + f, dir / f);
  }
  void replace_line(const std::string& file, int line, const std::string& text) {
    std::istringstream in(slurp(dir / file));
    std::string out, l;
    for (int i = 1; std::getline(in, l); ++i) out += (i == line ? text : l) + "\n";
    write_text(dir / file, out);
  }
  // Runs rank with -o and checks: exit 2, one line `dlfl: error: FILE:LINE: ...`, no output.
  void expect_error(const std::string& located) {
    const auto out = dir / "ranking.csv";
    const RunResult r = run_dlfl("rank " + dir.path().string() + " -o " + out.string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, StartsWith("dlfl: error: " + (dir / located).string()));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
  TempDir dir;
};

TEST_F(BrokenInput, RaggedMatrixRow) {
  replace_line("matrix.txt", 3, "1 1 1 +");
  expect_error("matrix.txt:3:");
}

TEST_F(BrokenInput, UnknownOutcome) {
  replace_line("tests.csv", 2, "SoftmaxTest.SumsToOne,MAYBE,10,");
  expect_error("tests.csv:2:");
}

TEST_F(BrokenInput, NonNumericCell) {
  replace_line("matrix.txt", 2, "1 1 1 1 1 1 x 1 0 0 0 0 -");
  expect_error("matrix.txt:2:");
}

TEST_F(BrokenInput, DimensionMismatchBetweenTestsAndMatrix) {
  replace_line("tests.csv", 9, "");
  std::string t = slurp(dir / "tests.csv");
  write_text(dir / "tests.csv", t.substr(0, t.size() - 1));
  const RunResult r = run_dlfl("rank " + dir.path().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + dir.path().string()));
}

TEST(RankCommand, TruncatedNativeFile) {
  TempDir dir;
  const auto native = dir / "s.dlfl";
  ASSERT_EQ(run_dlfl("convert " + kExample + " " + native.string()).exit_code, 0);
  const std::string bytes = slurp(native);
  write_text(native, bytes.substr(0, bytes.size() / 2));
  const RunResult r = run_dlfl("rank " + native.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + native.string() + ":"));
}

TEST(RankCommand, UnknownFormulaFailsBeforeReading) {
  const RunResult r = run_dlfl("rank /nonexistent -f ochaii");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown formula 'ochaii'"));
}

TEST(RankCommand, ExpressionSyntaxErrorPointsAtTheColumn) {
  const RunResult r = run_dlfl("rank " + kExample + " -f 'ef / (ep +'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("column 11"));
}

TEST(RankCommand, MissingInputNamesThePath) {
  const RunResult r = run_dlfl("rank /nonexistent/spectrum");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/spectrum"));
}

TEST(RankCommand, NoFailingTestWarns) {
  TempDir dir;
  write_text(dir / "spectra.csv", "name\na.cpp#f:1\n");
  write_text(dir / "tests.csv", "name,outcome,runtime,stacktrace\nt,PASS,1,\n");
  write_text(dir / "matrix.txt", "1 +\n");
  const RunResult r = run_dlfl("rank " + dir.path().string());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("no failing test"));
}

}  // namespace
}  // namespace dlfl::testing
