// scripts/realbugs_report.py, realbugs_record.py and realbugs_stats.py alone, on small
// hand-made runs and lists: what the page adds up, the mutation cost it states, what
// --record keeps, the two labellings' agreement, and the packages the curated lists need.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include "../../support/shell_output.h"
#include "../../support/test_files.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using dlfl::testing::slurp;

using Shell = dlfl::testing::ShellRun;

// stdout and stderr together.
Shell shell(const std::string& command) { return dlfl::testing::capture_shell(command + " 2>&1"); }

const std::string report = "/usr/bin/python3 " +
                           (fs::path(DLFL_REALBUGS_SCRIPT).parent_path() / "realbugs_report.py").string();
const std::string recorder = "/usr/bin/python3 " +
                             (fs::path(DLFL_REALBUGS_SCRIPT).parent_path() / "realbugs_record.py").string();
const std::string eval_header = "bug,technique,level,ties,elements,n_faulty,missing_faulty,found,first_rank,exam,"
                                "top1,top3,top5,top10,e_inspect,wasted_effort,ap,rr\n";

// A run in DIR/out that kept p+a#1 and p+b#2 (4 tests, 1 failing each), both listed.
void write_two_kept_bugs(const fs::path& dir) {
  fs::create_directories(dir / "out" / "dl");
  dlfl::testing::write_text(dir / "dl.jsonl", "{\"id\": \"p+a#1\"}\n{\"id\": \"p+b#2\"}\n");
  dlfl::testing::write_text(dir / "out" / "dl" / "results.jsonl",
                            R"({"subject": "p+a", "fault": "1", "kept": true, "tests": 4, "failing": 1, "seconds": 10})"
                            "\n"
                            R"({"subject": "p+b", "fault": "2", "kept": true, "tests": 4, "failing": 1, "seconds": 20})"
                            "\n");
}

// realbugs_report.py page of DIR/out, with DIR as the lists.
Shell page_of(const fs::path& dir) { return shell(report + " page " + (dir / "out").string() + " " + dir.string()); }

TEST(RealbugsReport, EXAMAveragesOverTheBugsWhoseFaultIsRanked) {
  // a#1's faulty function is ranked (EXAM 0.25 of every element, 0.5 of those run); b#2's
  // is not, so it has no EXAM: the page's mean is a#1's, not "nan".
  const dlfl::testing::TempDir dir{"realbugs-report"};
  write_two_kept_bugs(dir.path());
  std::string all = eval_header, ran = eval_header;
  for (const char* ties : {"best", "average", "worst"}) {
    all += std::string("p+a#1,ochiai,function,") + ties + ",8,1,0,1,2,0.25,0,1,1,1,2,1,0.5,0.5\n";
    ran += std::string("p+a#1,ochiai,function,") + ties + ",4,1,0,1,2,0.5,0,1,1,1,2,1,0.5,0.5\n";
    all += std::string("p+b#2,ochiai,function,") + ties + ",8,1,1,0,,,0,0,0,0,,,0,0\n";
    ran += std::string("p+b#2,ochiai,function,") + ties + ",4,1,1,0,,,0,0,0,0,,,0,0\n";
  }
  dlfl::testing::write_text(dir / "out" / "dl" / "eval.csv", all);
  dlfl::testing::write_text(dir / "out" / "dl" / "eval-executed.csv", ran);
  const Shell page = page_of(dir.path());
  ASSERT_EQ(page.status, 0) << page.out;
  EXPECT_THAT(page.out, HasSubstr("| p+b#2 | 4 (1) | - |"));
  EXPECT_THAT(page.out, HasSubstr("| ochiai | function | 2 | 0.00 | 0.50 | 0.50 | 0.50 | 0.2500 | 0.5000 | 0.250 | 0.250 |"));
}

TEST(RealbugsReport, TheMutationCostSaysHowManyFaultyLinesTheBudgetReached) {
  // p+a#1 ran this time and counted the faulty lines it tried; p+b#2 is a list entry of
  // a version that did not count them, which the page says instead of guessing.
  const dlfl::testing::TempDir dir{"realbugs-mbfl"};
  fs::create_directories(dir / "out" / "dl");
  const std::string cost = R"("generated": 12, "compiled": 11, "killed": 4, "runs": 40, "build_seconds": 3.0, )"
                           R"("run_seconds": 7.0, "seconds": 11.0, "plain_build_seconds": 2.0, "failure": "")";
  dlfl::testing::write_text(dir / "dl.jsonl", "{\"id\": \"p+a#1\"}\n{\"id\": \"p+b#2\", \"faulty\": [\"b.c:3:f\"], "
                                              "\"mbfl\": {" + cost + ", \"on_faulty_lines\": 0}}\n");
  dlfl::testing::write_text(dir / "out" / "dl" / "results.jsonl",
                            R"({"subject": "p+a", "fault": "1", "kept": true, "tests": 4, "failing": 1, "seconds": 10, )"
                            R"("faulty": ["a.c:1:f", "a.c:5:f"], "mbfl": {)" + cost +
                                R"(, "on_faulty_lines": 2, "faulty_lines_examined": 1, "plain_build_uncached": true}})" +
                                "\n");
  std::string rows = eval_header;
  for (const char* ties : {"best", "average", "worst"}) {
    rows += std::string("p+a#1,ochiai,line,") + ties + ",8,2,0,1,2,0.25,0,1,1,1,2,1,0.5,0.5\n";
    rows += std::string("p+b#2,ochiai,line,") + ties + ",8,1,0,1,3,0.25,0,1,1,1,2,1,0.33,0.33\n";  // from its kept spectrum
  }
  dlfl::testing::write_text(dir / "out" / "dl" / "eval.csv", rows);
  dlfl::testing::write_text(dir / "out" / "dl" / "eval-executed.csv", rows);
  const Shell page = page_of(dir.path());
  ASSERT_EQ(page.status, 0) << page.out;
  EXPECT_THAT(page.out, HasSubstr("| p+a#1 | 12 / 11 | 4 | 2 | 1 of 2 | 40 | 3 | 2* | 7 | 11 |"));
  EXPECT_THAT(page.out, HasSubstr("| p+b#2 (listed) | 12 / 11 | 4 | 0 | ? | 40 |"));
}

// Two annotators' bug kinds: each labelling written for `dlfl compare --by bug_kind`, their
// agreement as Cohen's kappa with the bugs they differ on, and a subtype given to a bug
// its own labelling calls generic refused in one line.
TEST(RealbugsStats, TheTwoLabellingsAgreeByCohensKappa) {
  const dlfl::testing::TempDir dir{"realbugs-kinds"};
  const auto entry = [](const std::string& id, const std::string& first, const std::string& second) {
    const auto kind = [](const std::string& label, const std::string& suffix) {
      const auto space = label.find(' ');
      const std::string k = label.substr(0, space);
      return "\"bug_kind" + suffix + "\": \"" + k + "\"" +
             (space == std::string::npos ? "" : ", \"dl_subtype" + suffix + "\": \"" + label.substr(space + 1) + "\"");
    };
    return "{\"id\": \"" + id + "\", " + kind(first, "") + ", " + kind(second, "_second") + "}\n";
  };
  // Agreement 3 of 4; chance agreement 0.5 * 0.25 + 0.5 * 0.75 = 0.5; kappa 0.5.
  dlfl::testing::write_text(dir / "dl.jsonl", entry("p+a#1", "dl-specific tensor/shape", "dl-specific tensor/shape") +
                                                  entry("p+a#2", "dl-specific device", "generic") +
                                                  entry("p+a#3", "generic", "generic") + entry("p+a#4", "generic", "generic"));
  const std::string stats = "/usr/bin/python3 " +
                            (fs::path(DLFL_REALBUGS_SCRIPT).parent_path() / "realbugs_stats.py").string();
  const Shell second = shell(stats + " kinds " + dir.path().string() + " second");
  ASSERT_EQ(second.status, 0) << second.out;
  EXPECT_EQ(second.out, "id,bug_kind,dl_subtype\np+a#1,dl-specific,tensor/shape\np+a#2,generic,\np+a#3,generic,\n"
                        "p+a#4,generic,\n");
  const Shell agreement = shell(stats + " agreement " + dir.path().string());
  ASSERT_EQ(agreement.status, 0) << agreement.out;
  EXPECT_THAT(agreement.out, HasSubstr("4 DL bugs labelled by both annotators (first: 2 dl-specific, 2 generic; second: "
                                       "1 dl-specific, 3 generic). They agree on the kind of 3 (75%); Cohen's kappa 0.50. "
                                       "Of the 1 both call DL-specific, 1 have the same subtype."));
  EXPECT_THAT(agreement.out, HasSubstr("| p+a#2 | dl-specific (device) | generic |"));
  EXPECT_THAT(agreement.out, Not(HasSubstr("| p+a#1 |")));
  dlfl::testing::write_text(dir / "dl.jsonl", "{\"id\": \"p+a#1\", \"bug_kind_second\": \"generic\", "
                                              "\"dl_subtype_second\": \"numerics\"}\n");
  const Shell bad = shell(stats + " kinds " + dir.path().string() + " second");
  EXPECT_EQ(WEXITSTATUS(bad.status), 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr("p+a#1: dl_subtype_second names a subtype of a bug that bug_kind_second does not call "
                                 "dl-specific"));
}

TEST(RealbugsRecord, RecordLeavesTheOtherEntriesByteForByte) {
  // A JSON string may hold a raw U+2028 (a line separator to Python's splitlines): the
  // entry it is in, and the ones after it, stay as they are.
  const dlfl::testing::TempDir dir{"realbugs-record"};
  fs::create_directories(dir / "out" / "dl");
  dlfl::testing::write_text(dir / "out" / "dl" / "manifest.jsonl", "");
  const std::string list = "{\"id\": \"p+a#1\", \"note\": \"x\xE2\x80\xA8y\"}\n{\"id\": \"p+a#2\"}\n";
  dlfl::testing::write_text(dir / "dl.jsonl", list);
  const Shell record = shell(recorder + " record " + (dir / "out").string() + " dl " + (dir / "dl.jsonl").string());
  ASSERT_EQ(record.status, 0) << record.out;
  EXPECT_THAT(record.out, HasSubstr("0 entries replaced and 0 added"));
  EXPECT_EQ(slurp(dir / "dl.jsonl"), list);
}

// Every project of the curated lists names the packages its build and tests need, so a
// run on a fresh machine does not discard bugs for a missing Python module or compiler.
TEST(RealbugsReport, TheCuratedPackagesCoverEveryListedProject) {
  const fs::path bugsets = fs::path(DLFL_REALBUGS_SCRIPT).parent_path().parent_path() / "bugsets";
  const std::string packages = report + " packages " + (bugsets / "packages.json").string();
  std::string ids;
  for (const char* side : {"dl.jsonl", "traditional.jsonl"}) {
    std::istringstream in(slurp(bugsets / side));
    for (std::string line; std::getline(in, line);) {
      const auto at = line.find("\"id\": \"");
      if (at == std::string::npos) continue;
      const auto start = at + 7, end = line.find('"', start);
      const std::string id = line.substr(start, end - start);
      ids += " '" + id + "'";
      // A project's packages, looked up alone: each must give at least one.
      const Shell one = shell(packages + " '" + id + "'");
      ASSERT_EQ(one.status, 0) << one.out;
      EXPECT_FALSE(one.out.empty()) << id << " has no packages in bugsets/packages.json";
    }
  }
  EXPECT_THAT(ids, HasSubstr("'tencent+ncnn#1930'"));
  const Shell all = shell(packages + ids);
  ASSERT_EQ(all.status, 0) << all.out;
  EXPECT_THAT(all.out, HasSubstr("qemu-user\n"));
  EXPECT_THAT(all.out, HasSubstr("libreadline-dev\n"));
}

TEST(RealbugsReport, TheWholeFileVariantLeavesOutABugWithNoFaultyLineByThatConvention) {
  // Both bugs are under the rule; p+b#2's whole-file truth has no line in its ranking (the
  // fix deletes only lines the coverage does not record), so `ochiai-whole-file` counts
  // p+a#1 alone, as a study under that convention would have discarded p+b#2.
  const dlfl::testing::TempDir dir{"realbugs-whole-file"};
  write_two_kept_bugs(dir.path());
  std::string rows = eval_header;
  for (const char* ties : {"best", "average", "worst"})
    for (const char* level : {"line", "function"}) {
      const std::string at = std::string(level) + "," + ties + ",";
      rows += "p+a#1,ochiai," + at + "8,1,0,1,2,0.25,0,1,1,1,2,1,0.5,0.5\n";
      rows += "p+a#1,ochiai-whole-file," + at + "8,1,0,1,1,0.125,1,1,1,1,1,0,1,1\n";
      rows += "p+b#2,ochiai," + at + "8,1,0,1,4,0.5,0,0,1,1,4,3,0.25,0.25\n";
      rows += "p+b#2,ochiai-whole-file," + at + "8,2,2,0,,,0,0,0,0,,,0,0\n";
    }
  dlfl::testing::write_text(dir / "out" / "dl" / "eval.csv", rows);
  dlfl::testing::write_text(dir / "out" / "dl" / "eval-executed.csv", rows);
  const Shell page = page_of(dir.path());
  ASSERT_EQ(page.status, 0) << page.out;
  EXPECT_THAT(page.out, HasSubstr("| ochiai | line | 2 |"));
  EXPECT_THAT(page.out, HasSubstr("| ochiai-whole-file | line | 1 | 1.00 |"));
  // Its position under the convention still reads "none ranked", not "did not run".
  EXPECT_THAT(page.out, HasSubstr("| p+b#2 | 4 (1) | 4 | - |"));
  const Shell table = shell(report + " table " + (dir / "out").string() + " dl " + dir.path().string());
  ASSERT_EQ(table.status, 0) << table.out;
  EXPECT_THAT(table.out, HasSubstr("p+b#2,ochiai,line,average,"));
  EXPECT_THAT(table.out, Not(HasSubstr("p+b#2,ochiai-whole-file")));
}

}  // namespace
}  // namespace dlfl::bench
