// Tests for the sarif and github ranking writers: SARIF 2.1.0 structure field by field
// (and the validator that checks it), normalized ranks, counts, related failing tests,
// source-root relative URIs, and GitHub's workflow-command escaping.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

#include "../support/sarif_validator.h"
#include "dlfl/error.h"
#include "dlfl/formula.h"
#include "dlfl/report/ranking_writer.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Three failing tests (one crashed, one flaky at 1/2) and two passing ones. e4 is run by
// passing tests only; e5 by none.
Spectrum suspicious_spectrum() {
  SpectrumBuilder b;
  b.add_element("/repo/src/grid.cpp", 19, 19, "tl::compute_grid(int, int)");  // 0
  b.add_element("/repo/src/grid.cpp", 20, 22, "tl::compute_grid(int, int)");  // 1 (3 lines)
  b.add_element("src/odd name#%.cpp", 5, 5, "f");                            // 2 relative, escaped in URIs
  b.add_extrinsic("device=cuda");                                          // 3
  b.add_element("/elsewhere/x.cpp", 1, 1, "g");                             // 4 passing tests only
  b.add_element("/repo/src/grid.cpp", 40, 40, "h");                         // 5 never run
  b.add_test(TestCase::fail("Grid.Ceil"), {0, 1, 3});
  b.add_test(TestCase::fail("Grid.Crash", TestStatus::crashed), {0, 2});
  b.add_test(TestCase::flaky("Grid.Flaky", 1, 2), {0, 1, 2});
  b.add_test(TestCase::pass("Grid.Pass"), {1, 4});
  b.add_test(TestCase::pass("Other.Pass"), {2, 4});
  return std::move(b).finish();
}

struct Written {
  std::string text;
  nlohmann::json json;
};

class SarifWriter : public ::testing::Test {
 protected:
  Written write(std::string_view format, std::vector<FormulaRanking> rankings, RankingWriteOptions options = {}) {
    options.counts = &counts_;
    std::ostringstream out;
    make_ranking_writer(format)->write(out, spectrum_, rankings, options);
    Written w{out.str(), {}};
    if (format == "sarif") w.json = nlohmann::json::parse(w.text);
    return w;
  }
  std::vector<RankedElement> ranking(const std::string& formula) {
    return rank(make_formula(formula).score(counts_), spectrum_.tie_break_keys());
  }

  Spectrum spectrum_ = suspicious_spectrum();
  Counts counts_ = compute_counts(spectrum_);
};

TEST(SarifValidatorTest, RejectsWhatTheSpecificationForbids) {
  testing::SarifValidator v;
  const auto good = nlohmann::json::parse(R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x",
      "rules": [{"id": "r"}]}}, "results": [{"ruleId": "r", "ruleIndex": 0, "level": "warning", "message": {"text": "m"},
      "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.cpp", "uriBaseId": "ROOT"},
      "region": {"startLine": 2, "endLine": 3}}}]}], "originalUriBaseIds": {"ROOT": {"uri": "file:///r/"}}}]})");
  EXPECT_THAT(v.validate(good), IsEmpty());
  auto broken = [&](const std::string& pointer, const nlohmann::json& value) {
    nlohmann::json j = good;
    j[nlohmann::json::json_pointer(pointer)] = value;
    return v.validate(j);
  };
  nlohmann::json no_version = good;
  no_version.erase("version");
  EXPECT_THAT(v.validate(no_version), ElementsAre(HasSubstr("'version'")));
  EXPECT_THAT(broken("/version", "2.0.0"), ElementsAre(HasSubstr("/version")));
  nlohmann::json no_driver_name = good;
  no_driver_name["runs"][0]["tool"]["driver"].erase("name");
  EXPECT_THAT(v.validate(no_driver_name), ElementsAre(HasSubstr("'name'")));
  nlohmann::json no_message = good;
  no_message["runs"][0]["results"][0].erase("message");
  EXPECT_THAT(v.validate(no_message), ElementsAre(HasSubstr("'message'")));
  EXPECT_THAT(broken("/runs/0/results/0/rank", 150), ElementsAre(HasSubstr("/rank")));
  EXPECT_THAT(broken("/runs/0/results/0/ruleIndex", 1), ElementsAre(HasSubstr("/ruleIndex")));
  EXPECT_THAT(broken("/runs/0/results/0/ruleId", "other"), ElementsAre(HasSubstr("/ruleId")));
  EXPECT_THAT(broken("/runs/0/results/0/level", "fatal"), ElementsAre(HasSubstr("/level")));
  EXPECT_THAT(broken("/runs/0/results/0/kind", "review"), ElementsAre(HasSubstr("/level")));
  EXPECT_THAT(broken("/runs/0/results/0/locations/0/physicalLocation/region/endLine", 1),
              ElementsAre(HasSubstr("/endLine")));
  EXPECT_THAT(broken("/runs/0/results/0/locations/0/physicalLocation/region/startLine", 0),
              ElementsAre(HasSubstr("/startLine")));
  EXPECT_THAT(broken("/runs/0/results/0/locations/0/physicalLocation", nlohmann::json::object()),
              ElementsAre(HasSubstr("artifactLocation or address")));
  EXPECT_THAT(broken("/runs/0/originalUriBaseIds/ROOT/uri", "file:///r"), ElementsAre(HasSubstr("end with '/'")));
  EXPECT_THAT(broken("/runs/0/originalUriBaseIds/ROOT/uri", "r/"), ElementsAre(HasSubstr("absolute")));
  EXPECT_THAT(broken("/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri", "file:///a.cpp"),
              ElementsAre(HasSubstr("relative")));
  EXPECT_THAT(broken("/runs/0/results/0/relatedLocations", nlohmann::json::parse(R"([{"id": 1}, {"id": 1}])")),
              ElementsAre(HasSubstr("unique")));
}

TEST_F(SarifWriter, ValidLogWithOneResultPerSuspiciousElement) {
  const auto ochiai = ranking("ochiai");
  RankingWriteOptions options;
  options.source_root = "/repo";
  options.granularity = "line";
  const auto w = write("sarif", {{"ochiai", ochiai}}, options);
  EXPECT_THAT(testing::SarifValidator().validate(w.json), IsEmpty()) << w.text;
  EXPECT_EQ(w.json["version"], "2.1.0");
  const auto& run = w.json["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "dlfl");
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["id"], "sbfl/ochiai");
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///repo/");
  EXPECT_EQ(run["properties"]["tests"], 5);
  EXPECT_EQ(run["properties"]["failing_tests"], 3);
  EXPECT_EQ(run["properties"]["flaky_tests"], 1);
  // e4 (passing tests only) and e5 (never run) are left out.
  const auto& results = run["results"];
  ASSERT_EQ(results.size(), 4u);
  std::vector<std::string> elements;
  for (const auto& r : results) elements.push_back(r["properties"]["element"]);
  EXPECT_THAT(elements, ElementsAre("/repo/src/grid.cpp#tl::compute_grid(int, int):19", "device=cuda",
                                    "/repo/src/grid.cpp#tl::compute_grid(int, int):20",
                                    "src/odd name#%.cpp#f:5"));

  const auto& top = results[0];
  EXPECT_EQ(top["ruleId"], "sbfl/ochiai");
  EXPECT_EQ(top["ruleIndex"], 0);
  EXPECT_EQ(top["level"], "warning");
  EXPECT_EQ(top["rank"], 100.0);  // the top of the range
  const auto& physical = top["locations"][0]["physicalLocation"];
  EXPECT_EQ(physical["artifactLocation"]["uri"], "src/grid.cpp");
  EXPECT_EQ(physical["artifactLocation"]["uriBaseId"], "SRCROOT");
  EXPECT_EQ(physical["region"]["startLine"], 19);
  EXPECT_EQ(physical["region"]["endLine"], 19);
  EXPECT_EQ(top["locations"][0]["logicalLocations"][0]["fullyQualifiedName"], "tl::compute_grid(int, int)");
  EXPECT_EQ(top["locations"][0]["logicalLocations"][0]["kind"], "function");
  const auto& p = top["properties"];
  EXPECT_EQ(p["formula"], "ochiai");
  EXPECT_DOUBLE_EQ(p["score"].get<double>(), 2.5 / std::sqrt(2.5 * 3.0));  // F = 2.5, ef + ep = 3
  EXPECT_EQ(p["position"], 1);
  EXPECT_EQ(p["rank_best"], 1);
  EXPECT_EQ(p["rank_worst"], 1);
  EXPECT_EQ(p["tie_rule"], "average");
  EXPECT_EQ(p["ef"], 2.5);  // 1 + 1 + the flaky test's 1/2
  EXPECT_EQ(p["ep"], 0.5);
  EXPECT_EQ(p["nf"], 0);
  EXPECT_EQ(p["np"], 2);
  EXPECT_EQ(p["failing_tests_executing"], 3);
  EXPECT_EQ(top["partialFingerprints"]["dlflElement/v1"], "/repo/src/grid.cpp#tl::compute_grid(int, int):19");
  // The failing tests that ran it, with why they failed.
  ASSERT_EQ(top["relatedLocations"].size(), 3u);
  EXPECT_EQ(top["relatedLocations"][0]["message"]["text"], "failed test Grid.Ceil executed this line");
  EXPECT_EQ(top["relatedLocations"][1]["message"]["text"], "crashed test Grid.Crash executed this line");
  EXPECT_EQ(top["relatedLocations"][2]["message"]["text"], "flaky test Grid.Flaky executed this line");
  EXPECT_THAT(top["message"]["text"].get<std::string>(),
              HasSubstr("position 1 of 6 (no tie), score 0.912871; executed by 2.5 of 2.5 failing and 0.5 of 2.5 passing "
                        "tests"));

  // A multi-line element spans its lines; an extrinsic one has a logical location only.
  EXPECT_EQ(results[2]["locations"][0]["physicalLocation"]["region"]["endLine"], 22);
  EXPECT_FALSE(results[1]["locations"][0].contains("physicalLocation"));
  EXPECT_EQ(results[1]["locations"][0]["logicalLocations"][0]["name"], "device=cuda");
  // A relative name stays relative, percent-encoded.
  EXPECT_EQ(results[3]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/odd%20name%23%25.cpp");
  // Ranks fall with the score over the whole ranking's range (0 .. the top's score here).
  const double highest = top["properties"]["score"];
  for (std::size_t i = 1; i < results.size(); ++i) {
    EXPECT_LE(results[i]["rank"].get<double>(), results[i - 1]["rank"].get<double>());
    const double score = results[i]["properties"]["score"];
    EXPECT_NEAR(results[i]["rank"].get<double>(), score / highest * 100.0, 0.006);
  }
}

TEST_F(SarifWriter, SeveralFormulasShareOneRunWithARulePerFormula) {
  const auto ochiai = ranking("ochiai"), dstar = ranking("dstar2");
  const auto w = write("sarif", {{"ochiai", ochiai}, {"ef / (ep + 1)", dstar}});
  EXPECT_THAT(testing::SarifValidator().validate(w.json), IsEmpty());
  const auto& run = w.json["runs"][0];
  ASSERT_EQ(run["tool"]["driver"]["rules"].size(), 2u);
  EXPECT_EQ(run["tool"]["driver"]["rules"][1]["id"], "sbfl/expression-2");
  EXPECT_EQ(run["tool"]["driver"]["rules"][1]["properties"]["formula"], "ef / (ep + 1)");
  EXPECT_EQ(run["results"].size(), 8u);
  EXPECT_EQ(run["results"][4]["ruleIndex"], 1);
  // Without a source root the base is declared but not placed; absolute names are file URIs.
  EXPECT_FALSE(run["originalUriBaseIds"]["SRCROOT"].contains("uri"));
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "file:///repo/src/grid.cpp");
  EXPECT_FALSE(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"].contains("uriBaseId"));
}

TEST_F(SarifWriter, RankIsNormalizedOverTheGivenRangeAndInfinityIsTheTop) {
  std::vector<RankedElement> shown = {{0, kInfiniteScore, 1, 1}, {1, 3.0, 2, 2}, {2, 2.0, 3, 3}};
  const auto w = write("sarif", {{"dstar2", shown, 1.0, 5.0}});
  const auto& results = w.json["runs"][0]["results"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["rank"], 100.0);
  EXPECT_EQ(results[1]["rank"], 50.0);
  EXPECT_EQ(results[2]["rank"], 25.0);
  EXPECT_EQ(results[0]["properties"]["score"], kInfiniteScore);  // finite, so every parser reads it
  EXPECT_THAT(results[0]["message"]["text"].get<std::string>(), HasSubstr("score max"));
}

TEST_F(SarifWriter, CountsAreRequired) {
  std::ostringstream out;
  const auto ochiai = ranking("ochiai");
  const FormulaRanking one[] = {{"ochiai", ochiai}};
  for (const auto* format : {"sarif", "github"}) {
    EXPECT_TRUE(make_ranking_writer(format)->uses_counts());
    try {
      make_ranking_writer(format)->write(out, spectrum_, one, {});
      ADD_FAILURE() << format << " wrote without counts";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("counts")) << format;
    }
  }
  EXPECT_FALSE(make_ranking_writer("csv")->uses_counts());
}

TEST_F(SarifWriter, GithubAnnotationsForSuspiciousLinesWithEscaping) {
  const auto ochiai = ranking("ochiai");
  RankingWriteOptions options;
  options.source_root = "/repo";
  options.granularity = "line";
  const auto w = write("github", {{"ochiai", ochiai}}, options);
  std::vector<std::string> lines;
  std::istringstream in(w.text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // Extrinsic e3 has no file; e4 and e5 no failing test.
  ASSERT_EQ(lines.size(), 3u) << w.text;
  EXPECT_EQ(lines[0],
            "::warning file=src/grid.cpp,line=19,endLine=19,title=dlfl%3A suspicious line #1 (ochiai)::Line 19 in "
            "tl::compute_grid(int, int) ranks 1 of 6 under ochiai (no tie; average tie rule), score 0.912871: executed "
            "by 2.5 of 2.5 failing and 0.5 of 2.5 passing tests.");
  EXPECT_THAT(lines[1], HasSubstr("line=20,endLine=22,"));
  EXPECT_THAT(lines[1], HasSubstr("::Lines 20-22 in tl::compute_grid(int, int) ranks"));
  // ',' and ':' are escaped in properties, '%' everywhere.
  EXPECT_THAT(lines[2], ::testing::StartsWith("::warning file=src/odd name#%25.cpp,line=5,"));
}

// The HTML page's data block cannot be closed early by a name holding "</script>", and
// it embeds the sources found under the source root.
TEST_F(SarifWriter, HtmlDataBlockIsSafeAndCarriesSources) {
  iotest::TempDir root;
  fs::create_directories(root / "src");
  iotest::write_file(root / "src/a.cpp", "int a;\r\nint </script><b>x</b>;\n");
  SpectrumBuilder b;
  b.add_element("src/a.cpp", 2, 2, "f</script>");
  b.add_test(TestCase::fail("t"), {0});
  const Spectrum s = std::move(b).finish();
  const Counts counts = compute_counts(s);
  const auto ranked = rank(make_formula("ochiai").score(counts), s.tie_break_keys());
  RankingWriteOptions options;
  options.counts = &counts;
  options.source_root = root.path();
  std::ostringstream out;
  const FormulaRanking one[] = {{"ochiai", ranked}};
  make_ranking_writer("html")->write(out, s, one, options);
  const std::string page = out.str();
  const auto start = page.find("<script type=\"application/json\" id=\"dlfl-data\">");
  ASSERT_NE(start, std::string::npos);
  const auto end = page.find("</script>", start);
  const std::string block = page.substr(start, end - start);
  const auto data = nlohmann::json::parse(block.substr(block.find('>') + 1));
  EXPECT_EQ(data["functions"][0], "f</script>");
  EXPECT_EQ(data["sources"][0][1], "int </script><b>x</b>;");  // CR dropped
  EXPECT_EQ(data["summary"]["tests"], 1);
  EXPECT_EQ(data["rankings"][0]["formula"], "ochiai");
  EXPECT_EQ(data["elements"][0][4], 1.0);  // ef
}

}  // namespace
}  // namespace dlfl::io
