// `dlfl rank --format sarif|github` end to end: the SARIF log of the example is valid and
// places the faulty line first; thresholds and the github default of 10 annotations.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/sarif_validator.h"
#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

const std::string kExample = source_path("examples/spectra/softmax");

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(RankReportFormats, SarifOfTheExampleIsValidAndRelativeToTheSourceRoot) {
  const RunResult r = run_dlfl("rank " + kExample + " --formula dstar2 --format sarif --source-root /work/src");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto log = nlohmann::json::parse(r.out);
  EXPECT_THAT(SarifValidator().validate(log), IsEmpty());
  const auto& run = log["runs"][0];
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///work/src/");
  EXPECT_EQ(run["properties"]["granularity"], "line");
  const auto& top = run["results"][0];
  EXPECT_EQ(top["ruleId"], "sbfl/dstar2");
  EXPECT_EQ(top["rank"], 100.0);
  EXPECT_EQ(top["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/ops/softmax.cpp");
  EXPECT_EQ(top["locations"][0]["physicalLocation"]["region"]["startLine"], 24);
  EXPECT_EQ(top["properties"]["ef"], 2);
  EXPECT_EQ(top["properties"]["ep"], 0);
  EXPECT_EQ(top["relatedLocations"].size(), 2u);
  // Only elements some failing test ran: the example has 12 elements, 2 failing tests.
  for (const auto& result : run["results"]) EXPECT_GT(result["properties"]["ef"].get<double>(), 0.0);
}

// The tensorlite demo (scripts/demo.sh, fault grid_ceil_div; its spectrum is kept in
// examples/spectra): a valid log whose first result is the faulty line.
TEST(RankReportFormats, SarifOfTheTensorliteDemoIsValid) {
  const std::string demo = source_path("examples/spectra/tensorlite-grid_ceil_div.dlfl");
  const RunResult r = run_dlfl("rank " + demo + " --formula dstar2 --formula ochiai --format sarif --source-root " +
                               source_path("examples/tensorlite"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto log = nlohmann::json::parse(r.out);
  EXPECT_THAT(SarifValidator().validate(log), IsEmpty());
  const auto& run = log["runs"][0];
  EXPECT_EQ(run["properties"]["tests"], 437);
  EXPECT_EQ(run["properties"]["failing_tests"], 23);
  const auto& top = run["results"][0];
  EXPECT_EQ(top["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/launch_geometry.cpp");
  EXPECT_EQ(top["locations"][0]["physicalLocation"]["region"]["startLine"], 19);
  EXPECT_EQ(top["rank"], 100.0);
  EXPECT_EQ(top["relatedLocations"].size(), 23u);
  std::size_t per_rule[2] = {0, 0};
  for (const auto& result : run["results"]) {
    ++per_rule[result["ruleIndex"].get<std::size_t>()];
    // Every location is under SRCROOT, which the run defines.
    EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"], "SRCROOT");
  }
  EXPECT_EQ(per_rule[0], per_rule[1]);  // both formulas report the same executed elements
  EXPECT_GT(per_rule[0], 100u);
}

// The page names each file once, and each element its own file, with or without
// --source-root (whose paths are made afresh for every element).
TEST(RankReportFormats, HtmlNamesEachFileOnce) {
  for (const std::string root : {"", " --source-root /nonexistent"}) {
    const RunResult r = run_dlfl("rank " + kExample + " --format html" + root);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string start = "id=\"dlfl-data\">";
    const auto at = r.out.find(start);
    ASSERT_NE(at, std::string::npos);
    const auto end = r.out.find("</script>", at);
    const auto data = nlohmann::json::parse(r.out.substr(at + start.size(), end - at - start.size()));
    const std::vector<std::string> files = data.at("files");
    EXPECT_EQ(files, (std::vector<std::string>{"src/tensor.cpp", "src/ops/softmax.cpp", "src/ops/loss.cpp",
                                               "src/ops/matmul.cpp"}))
        << root;
    for (const auto& e : data.at("elements")) {
      if (e.at(2).get<int>() == 24) {
        EXPECT_EQ(files.at(e.at(0).get<std::size_t>()), "src/ops/softmax.cpp") << root;
      }
    }
  }
}

TEST(RankReportFormats, MinScoreAndTopCutTheResults) {
  const RunResult r = run_dlfl("rank " + kExample + " --format sarif --min-score 0.6");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto results = nlohmann::json::parse(r.out)["runs"][0]["results"];
  ASSERT_EQ(results.size(), 5u);  // 1 and the 0.632 tie of four
  for (const auto& result : results) EXPECT_GE(result["properties"]["score"].get<double>(), 0.6);
  const RunResult top = run_dlfl("rank " + kExample + " --format sarif --top 1");
  EXPECT_EQ(nlohmann::json::parse(top.out)["runs"][0]["results"].size(), 1u);
}

TEST(RankReportFormats, GithubAnnotatesTheTopTenByDefault) {
  const RunResult r = run_dlfl("rank " + kExample + " --format github --formula ochiai");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 10u) << r.out;
  EXPECT_THAT(lines[0], StartsWith("::warning file=src/ops/softmax.cpp,line=24,endLine=24,title=dlfl%3A suspicious "
                                   "line #1 (ochiai)::Line 24 in softmax ranks 1 of 12"));
  for (const auto& line : lines) EXPECT_THAT(line, StartsWith("::warning file="));
  EXPECT_EQ(lines_of(run_dlfl("rank " + kExample + " --format github --top 2").out).size(), 2u);
  const RunResult functions = run_dlfl("rank " + kExample + " --format github --granularity function --top 1");
  EXPECT_THAT(functions.out, HasSubstr("title=dlfl%3A suspicious function #1 (ochiai)::Function softmax ranks 1 of"));
}

}  // namespace
}  // namespace dlfl::testing
