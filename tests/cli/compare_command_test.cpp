// `dlfl compare` end to end: Jahan et al.'s real BugLocator/BLUiR per-bug tables (DL =
// Denchmark, traditional = BuGL; skipped when ../shared is absent), grouping by labels,
// BLIA's RR/AP-only tables, output formats and errors.
//
// Expected values are computed outside dlfl from the raw CSVs, with scipy 1.10:
//   /usr/bin/python3 tests/lab/eval/reference/make_compare_reference.py ../shared/bugsets/jahan2025
// and, for one technique, with awk alone (BLUiR on the DL table: n, Top@1, Top@10, MRR):
//   cd ../shared/bugsets/jahan2025 && awk -F, '$4=="bluir"{n++; if($6==1)t1++;
//     if($6>=1&&$6<=10)t10++; s+=$7} END{printf "%d %.12g %.12g %.12g\n", n, t1/n, t10/n, s/n}'
//     results_rq1_buglocator_bluir_Denchmark.csv        (the awk program is one line)
//   -> 1793 0.201338538762 0.585052983826 0.329249457647
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kJahan = std::string(DLFL_SHARED_DIR) + "/bugsets/jahan2025";
const std::string kColumns = "--no-header --columns project,version,bug,technique,n_faulty,first_rank,rr,ap";

// The DL-vs-traditional comparison of docs/results.md.
std::string real_tables() {
  return "compare --input " + kJahan + "/results_rq1_buglocator_bluir_BugGL.csv --group traditional --input " +
         kJahan + "/results_rq1_buglocator_bluir_Denchmark.csv --group dl " + kColumns;
}

#define SKIP_WITHOUT_JAHAN()                                                        \
  if (!std::filesystem::exists(kJahan + "/results_rq1_buglocator_bluir_BugGL.csv")) \
  GTEST_SKIP() << "Jahan et al.'s replication data is not at " << kJahan

const nlohmann::json& group_of(const nlohmann::json& doc, const std::string& technique, const std::string& group) {
  for (const auto& g : doc["groups"])
    if (g["technique"] == technique && g["group"] == group) return g;
  throw std::runtime_error("no group " + technique + "/" + group);
}

const nlohmann::json& test_of(const nlohmann::json& doc, const std::string& technique, const std::string& metric) {
  for (const auto& t : doc["tests"])
    if (t["technique"] == technique && t["metric"] == metric) return t;
  throw std::runtime_error("no test " + technique + "/" + metric);
}

TEST(CompareCommand, RealBugLocatorBluirTablesPerTechniqueAndGroup) {
  SKIP_WITHOUT_JAHAN();
  const RunResult r = run_dlfl(real_tables() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["groups"].size(), 4u);
  // n: BuGL has 228 bugs, Denchmark 1793, each ranked by both techniques.
  EXPECT_EQ(group_of(doc, "buglocator", "traditional")["n"], 228);
  EXPECT_EQ(group_of(doc, "bluir", "traditional")["n"], 228);
  EXPECT_EQ(group_of(doc, "buglocator", "dl")["n"], 1793);
  EXPECT_EQ(group_of(doc, "bluir", "dl")["n"], 1793);

  const auto& bluir_dl = group_of(doc, "bluir", "dl");  // awk, see the top of the file
  EXPECT_NEAR(bluir_dl["top1"].get<double>(), 0.201338538762, 1e-11);
  EXPECT_NEAR(bluir_dl["top5"].get<double>(), 0.472392638037, 1e-11);
  EXPECT_NEAR(bluir_dl["top10"].get<double>(), 0.585052983826, 1e-11);
  EXPECT_NEAR(bluir_dl["mrr"].get<double>(), 0.329249457647, 1e-11);
  EXPECT_NEAR(bluir_dl["map"].get<double>(), 0.256703353938, 1e-11);
  // Two BuGL bugs have first rank 0 (not retrieved): they miss at every N.
  const auto& bl_trad = group_of(doc, "buglocator", "traditional");
  EXPECT_NEAR(bl_trad["top1"].get<double>(), 0.385964912281, 1e-11);
  EXPECT_NEAR(bl_trad["top10"].get<double>(), 0.789473684211, 1e-11);
  EXPECT_NEAR(bl_trad["mrr"].get<double>(), 0.514229002557, 1e-11);
  EXPECT_NEAR(bl_trad["map"].get<double>(), 0.441731790377, 1e-11);
}

TEST(CompareCommand, RealTablesStatisticsMatchScipy) {
  SKIP_WITHOUT_JAHAN();
  const RunResult r = run_dlfl(real_tables() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["tests"].size(), 4u);  // 2 techniques x (mrr, map), traditional vs dl
  const auto& bluir_mrr = test_of(doc, "bluir", "mrr");
  EXPECT_EQ(bluir_mrr["groups"], nlohmann::json::array({"traditional", "dl"}));
  EXPECT_NEAR(bluir_mrr["performance_diff"].get<double>(), 24.338132901, 1e-8);
  EXPECT_NEAR(bluir_mrr["p_student"].get<double>(), 6.05121459178e-05, 1e-14);
  EXPECT_NEAR(bluir_mrr["p_welch"].get<double>(), 0.00022417181802, 1e-13);
  EXPECT_NEAR(bluir_mrr["p_mannwhitney"].get<double>(), 0.000134724882542, 1e-13);
  EXPECT_NEAR(bluir_mrr["cohens_d"].get<double>(), 0.282602958648, 1e-11);
  EXPECT_NEAR(bluir_mrr["cliffs_delta"].get<double>(), 0.154093404174, 1e-11);
  EXPECT_EQ(bluir_mrr["both_normal"], false);
  const auto& bluir_map = test_of(doc, "bluir", "map");
  EXPECT_NEAR(bluir_map["performance_diff"].get<double>(), 30.0012050125, 1e-8);
  EXPECT_NEAR(bluir_map["p_mannwhitney"].get<double>(), 6.25356402003e-06, 1e-14);
  // BugLocator: the DL bugs do worse, but by far less, and not significantly.
  const auto& bl_mrr = test_of(doc, "buglocator", "mrr");
  EXPECT_NEAR(bl_mrr["performance_diff"].get<double>(), 5.74509155444, 1e-8);
  EXPECT_NEAR(bl_mrr["p_mannwhitney"].get<double>(), 0.342202713375, 1e-11);
  const auto& bl_map = test_of(doc, "buglocator", "map");
  EXPECT_NEAR(bl_map["performance_diff"].get<double>(), 10.1728218874, 1e-8);
  EXPECT_NEAR(bl_map["p_student"].get<double>(), 0.0666976319963, 1e-11);
  EXPECT_NEAR(bl_map["p_welch"].get<double>(), 0.077589754385, 1e-11);
  // Wilcoxon: BugLocator against BLUiR on the same bugs, paired by project#bug.
  bool seen = false;
  for (const auto& p : doc["paired"]) {
    if (p["group"] != "dl" || p["metric"] != "mrr") continue;
    seen = true;
    EXPECT_EQ(p["techniques"], nlohmann::json::array({"buglocator", "bluir"}));
    EXPECT_EQ(p["pairs"], 1793);
    EXPECT_EQ(p["w"], 323146.5);
    EXPECT_NEAR(p["p_wilcoxon"].get<double>(), 5.32133803755e-49, 1e-58);
  }
  EXPECT_TRUE(seen);
}

TEST(CompareCommand, RealTablesAsTableAndSvg) {
  SKIP_WITHOUT_JAHAN();
  const RunResult table = run_dlfl(real_tables());
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("technique   group           n   top1   top5  top10    mrr    map"));
  EXPECT_THAT(table.out, HasSubstr("bluir       dl           1793  0.201  0.472  0.585  0.329  0.257"));
  EXPECT_THAT(table.out, HasSubstr("bluir       mrr     traditional  dl"));
  TempDir dir;
  const RunResult svg = run_dlfl(real_tables() + " --format svg -o " + (dir / "chart.svg").string());
  ASSERT_EQ(svg.exit_code, 0) << svg.err;
  EXPECT_EQ(svg.out, "");
  const std::string chart = slurp(dir / "chart.svg");
  EXPECT_THAT(chart, StartsWith("<?xml"));
  EXPECT_THAT(chart, HasSubstr(">MRR<"));
  EXPECT_THAT(chart, HasSubstr(">buglocator<"));
}

TEST(CompareCommand, GroupsByJahanBugTypeLabels) {
  SKIP_WITHOUT_JAHAN();
  // Per-type n and BLUiR's MRR, from labels.csv joined by project#bug (python, csv module):
  // both annotators' dl_bug_type ("Tensor" read as "Tensor & Input") when equal; only 224
  // of the 1793 DL bugs are labelled (the other 1569, two techniques each, are left out).
  const RunResult r = run_dlfl("compare --input " + kJahan + "/results_rq1_buglocator_bluir_Denchmark.csv --group dl " +
                               kColumns + " --labels " + kJahan + "/labels.csv --by dl_bug_type --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("3138 of 3586 results of group 'dl' have no row in"));
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(group_of(doc, "bluir", "Training")["n"], 72);
  EXPECT_EQ(group_of(doc, "bluir", "Model")["n"], 39);
  EXPECT_EQ(group_of(doc, "bluir", "API")["n"], 22);
  EXPECT_EQ(group_of(doc, "bluir", "GPU")["n"], 12);
  EXPECT_EQ(group_of(doc, "bluir", "Tensor & Input")["n"], 9);
  EXPECT_EQ(group_of(doc, "bluir", "(not a DL bug)")["n"], 67);
  EXPECT_NEAR(group_of(doc, "bluir", "GPU")["mrr"].get<double>(), 0.4110894812537807, 1e-12);
  EXPECT_NEAR(group_of(doc, "buglocator", "GPU")["mrr"].get<double>(), 0.22278232134039377, 1e-12);
  EXPECT_NEAR(group_of(doc, "buglocator", "Tensor & Input")["mrr"].get<double>(), 0.3582771221069093, 1e-12);
}

TEST(CompareCommand, BliaTablesCarryRrAndApOnly) {
  SKIP_WITHOUT_JAHAN();
  // BuGL's table has a header Project,Bug_ID,MRR,MAP; Denchmark's a header of numbers
  // (6,8,11,12): --columns names both, and the first line is skipped as a header.
  const RunResult r = run_dlfl("compare --input " + kJahan + "/results_rq1_BLIA_BugGL.csv --group traditional --input " +
                               kJahan + "/results_rq1_BLIA_Dechmark.csv --group dl --columns project,bug,rr,ap " +
                               "--technique BLIA --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& trad = group_of(doc, "BLIA", "traditional");
  const auto& dl = group_of(doc, "BLIA", "dl");
  EXPECT_EQ(trad["n"], 228);
  EXPECT_EQ(dl["n"], 1793);
  EXPECT_TRUE(dl["top1"].is_null());  // no ranks in BLIA's tables
  EXPECT_NEAR(trad["mrr"].get<double>(), 0.5445534257675438, 1e-12);
  EXPECT_NEAR(dl["mrr"].get<double>(), 0.43699327966149865, 1e-12);
  EXPECT_NEAR(dl["map"].get<double>(), 0.36292087670835105, 1e-12);
}

TEST(CompareCommand, ReadsEvalBatchOutput) {
  // A per-bug CSV as `dlfl eval --format csv` writes it, filtered to one level and rule.
  TempDir dir;
  write_text(dir / "a.csv",
             "bug,technique,level,ties,first_rank,ap,rr\n"
             "p#1,ochiai,file,average,1,1,1\np#2,ochiai,file,average,3,0.5,0.3333333333333333\n"
             "p#1,ochiai,line,average,4,0.25,0.25\np#2,ochiai,line,average,0,0,0\n");
  write_text(dir / "b.csv",
             "bug,technique,level,ties,first_rank,ap,rr\n"
             "q#1,ochiai,file,average,2,0.5,0.5\nq#2,ochiai,file,average,0,0,0\n");
  const RunResult r = run_dlfl("compare -i " + (dir / "a.csv").string() + " -g x -i " + (dir / "b.csv").string() +
                               " -g y --filter level=file --format csv --top 1,2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("technique,group,n,top1,top2,mrr,map,sw_p:mrr,sw_p:map\n"
                                "ochiai,x,2,0.500,0.500,0.667,0.750,,\n"
                                "ochiai,y,2,0.000,0.500,0.250,0.250,,\n"));
}

TEST(CompareCommand, BadInputIsOneLineAndExitTwo) {
  TempDir dir;
  write_text(dir / "t.csv", "p,1,7,bl,1,4,0.25,0.25\np,1,8,bl,1,4,2.5,0.25\n");
  const auto out = dir / "out.json";
  const RunResult r = run_dlfl("compare -i " + (dir / "t.csv").string() + " -g g " + kColumns + " -o " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "dlfl: error: " + (dir / "t.csv").string() + ":2: rr 2.5 is outside [0, 1]\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  const RunResult groups = run_dlfl("compare -i a.csv -i b.csv -g x");
  EXPECT_EQ(groups.exit_code, 2);
  EXPECT_THAT(groups.err, HasSubstr("give one --group per --input"));
  const RunResult missing = run_dlfl("compare -i " + (dir / "none.csv").string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, StartsWith("dlfl: error: " + (dir / "none.csv").string() + ": cannot read: No such file or directory"));
}

}  // namespace
}  // namespace dlfl::testing
