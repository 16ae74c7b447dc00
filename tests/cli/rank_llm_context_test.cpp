// `dlfl rank --format llm-json|llm-markdown` end to end on the bundled tensorlite spectrum
// and its sources: the faulty line first with its snippet and signature, the defaults (top
// 20, 64 KiB), --max-bytes, and the one-line errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;

const std::string kSpectrum = source_path("examples/spectra/tensorlite-grid_ceil_div.dlfl");
const std::string kSources = source_path("examples/tensorlite");

RunResult rank_llm(const std::string& format, const std::string& more = "") {
  return run_dlfl("rank " + kSpectrum + " --formula dstar2 --format " + format + " --source-root " + kSources + " " +
                  more);
}

TEST(RankLlmContext, JsonPutsTheFaultFirstWithItsSourceAndFunction) {
  const RunResult r = rank_llm("llm-json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["formula"], "dstar2");
  EXPECT_EQ(doc["granularity"], "line");
  EXPECT_GE(doc["elements"].size(), 20u);  // the default top, and the last tie whole
  EXPECT_LE(r.out.size(), 65536u);         // the default bound
  const auto& top = doc["elements"][0];
  EXPECT_EQ(top["file"], "src/launch_geometry.cpp");
  EXPECT_EQ(top["line"], 19);
  EXPECT_EQ(top["rank_best"], 1);
  EXPECT_EQ(top["rank_worst"], 1);
  ASSERT_TRUE(top["snippet"].is_object()) << top;
  EXPECT_THAT(top["snippet"]["lines"].dump(), HasSubstr("return n / block;"));
  ASSERT_TRUE(top["signature"].is_object()) << top;
  EXPECT_THAT(top["signature"]["text"].get<std::string>(), HasSubstr("compute_grid("));
  EXPECT_GT(doc["failing_tests_total"].get<int>(), 0);
  EXPECT_FALSE(doc["failing_tests"][0]["name"].get<std::string>().empty());
}

TEST(RankLlmContext, MarkdownIsBoundedAndSaysWhatWasLeftOut) {
  const RunResult full = rank_llm("llm-markdown", "--max-bytes 0");
  ASSERT_EQ(full.exit_code, 0) << full.err;
  EXPECT_THAT(full.out, HasSubstr("# Fault localization context"));
  EXPECT_THAT(full.out, HasSubstr("`src/launch_geometry.cpp:19`"));
  const RunResult small = rank_llm("llm-markdown", "--max-bytes 6000");
  ASSERT_EQ(small.exit_code, 0) << small.err;
  EXPECT_LE(small.out.size(), 6000u);
  EXPECT_THAT(small.out, HasSubstr("Left out to stay within 6000 bytes"));
  EXPECT_THAT(small.out, HasSubstr("`src/launch_geometry.cpp:19`"));  // the top stays
  EXPECT_EQ(rank_llm("llm-markdown", "--max-bytes 6000").out, small.out);  // deterministic
}

TEST(RankLlmContext, TopAndContextLinesShapeTheContext) {
  const RunResult r = rank_llm("llm-json", "--top 1 --context-lines 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["elements"].size(), 1u);
  EXPECT_EQ(doc["elements"][0]["snippet"]["first_line"], 19);
  EXPECT_EQ(doc["elements"][0]["snippet"]["last_line"], 19);
}

TEST(RankLlmContext, WithoutTheSourceRootNothingIsQuoted) {
  // The spectrum's names are relative to examples/tensorlite; from elsewhere no file is
  // found, and each element says so instead of failing.
  const RunResult r = run_dlfl("rank " + kSpectrum + " --format llm-json --source-root " + source_path("docs"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["elements"][0]["snippet"].is_null());
  EXPECT_THAT(doc["elements"][0]["source_note"].get<std::string>(), HasSubstr("not found under the source root"));
}

TEST(RankLlmContext, ErrorsAreOneLine) {
  const RunResult two = run_dlfl("rank " + kSpectrum + " -f ochiai -f dstar2 --format llm-json");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_THAT(two.err, HasSubstr("dlfl: error: the llm-json format holds one ranking, got 2"));
  EXPECT_EQ(two.out, "");
  const RunResult tiny = rank_llm("llm-markdown", "--max-bytes 10");
  EXPECT_EQ(tiny.exit_code, 2);
  EXPECT_THAT(tiny.err, HasSubstr("the limit is 10"));
  EXPECT_EQ(std::count(tiny.err.begin(), tiny.err.end(), '\n'), 1) << tiny.err;
  const RunResult table = run_dlfl("rank " + kSpectrum + " --top 1 --max-bytes 100");
  EXPECT_EQ(table.exit_code, 0);
  EXPECT_THAT(table.err, HasSubstr("dlfl: warning: --max-bytes only bounds the llm-json and llm-markdown formats"));
}

TEST(RankLlmContext, HelpNamesTheEnumValuesAndTheInputs) {
  const RunResult r = run_dlfl("rank --help");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("{line,block,function,file}"));
  EXPECT_THAT(r.out, HasSubstr("{best,worst,average}"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("->")));  // no name->number maps
  EXPECT_THAT(r.out, HasSubstr("Matrix Market"));
  EXPECT_THAT(r.out, HasSubstr("lcov"));
  EXPECT_THAT(run_dlfl("convert --help").out, HasSubstr("lcov .info/.lcov"));
  const RunResult bad = run_dlfl("rank " + kSpectrum + " --ties middle");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("middle not in {best,worst,average}"));
}

}  // namespace
}  // namespace dlfl::testing
