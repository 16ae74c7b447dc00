// `dlfl eval` end to end on a hand-worked ranking with ties: every metric under each tie
// rule at line, function and file level, the three ranking formats, manifest ground
// truth, batches, and errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Six lines, as `dlfl rank --format csv` writes them. Scores: 0.9 | 0.7 0.7 0.7 | 0.2 | 0.1.
// The faults (truth.txt) are a.cpp:6, inside the tie at positions 2..4, and c.cpp:9 at 6.
const char* const kRankingCsv =
    "rank,rank_best,rank_worst,element,file,line,function,kind,score\n"
    "1,1,1,src/a.cpp#f:2,src/a.cpp,2,f,code,0.9\n"
    "3,2,4,src/a.cpp#g:5,src/a.cpp,5,g,code,0.7\n"
    "3,2,4,src/a.cpp#g:6,src/a.cpp,6,g,code,0.7\n"
    "3,2,4,src/b.cpp#h:1,src/b.cpp,1,h,code,0.7\n"
    "5,5,5,src/a.cpp#f:3,src/a.cpp,3,f,code,0.2\n"
    "6,6,6,src/c.cpp#k:9,src/c.cpp,9,k,code,0.1\n";
const char* const kTruth = "# faulty lines of the fix\nsrc/a.cpp:6\nsrc/c.cpp:9\n";

// CSV output rows keyed by "level/ties", each a column -> value map.
std::map<std::string, std::map<std::string, std::string>> rows_of(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::istringstream h(line); std::getline(h, line, ',');) header.push_back(line);
  std::map<std::string, std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::map<std::string, std::string> row;
    std::istringstream cells(line + ",");
    for (std::size_t i = 0; i < header.size(); ++i) std::getline(cells, row[header[i]], ',');
    rows[row["level"] + "/" + row["ties"]] = row;
  }
  return rows;
}

double num(const std::map<std::string, std::string>& row, const std::string& column) {
  return std::stod(row.at(column));
}

class EvalCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    write_text(dir_ / "ochiai.csv", kRankingCsv);
    write_text(dir_ / "truth.txt", kTruth);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  TempDir dir_;
};

TEST_F(EvalCommand, LineLevelUnderEachTieRule) {
  const RunResult r = run_dlfl("eval " + path("ochiai.csv") + " --truth " + path("truth.txt") + " --level line --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("bug,technique,level,ties,elements,n_faulty,missing_faulty,found,first_rank,exam,"
                                "top1,top3,top5,top10,e_inspect,wasted_effort,ap,rr\n"
                                "truth,ochiai,line,best,6,2,0,1,2,"));
  auto rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 3u);
  // best: faults at 2 and 6. AP = (1/2 + 2/6) / 2 = 5/12.
  const auto& best = rows["line/best"];
  EXPECT_EQ(num(best, "first_rank"), 2);
  EXPECT_DOUBLE_EQ(num(best, "exam"), 2.0 / 6);
  EXPECT_EQ(num(best, "top1"), 0);
  EXPECT_EQ(num(best, "top3"), 1);
  EXPECT_DOUBLE_EQ(num(best, "ap"), 5.0 / 12);
  EXPECT_DOUBLE_EQ(num(best, "rr"), 0.5);
  // worst: faults at 4 and 6. AP = (1/4 + 2/6) / 2 = 7/24; no hit within 3.
  const auto& worst = rows["line/worst"];
  EXPECT_EQ(num(worst, "first_rank"), 4);
  EXPECT_DOUBLE_EQ(num(worst, "exam"), 4.0 / 6);
  EXPECT_EQ(num(worst, "top3"), 0);
  EXPECT_EQ(num(worst, "top5"), 1);
  EXPECT_DOUBLE_EQ(num(worst, "ap"), 7.0 / 24);
  EXPECT_DOUBLE_EQ(num(worst, "rr"), 0.25);
  // average: the fault is equally likely at 2, 3 or 4. E_inspect = 2 + (3 − 1)/(1 + 1) = 3;
  // P(within 3) = 2/3; E[RR] = (1/2 + 1/3 + 1/4)/3 = 13/36; E[AP] = (13/36 + 2/6)/2 = 25/72.
  const auto& average = rows["line/average"];
  EXPECT_EQ(num(average, "first_rank"), 3);
  EXPECT_DOUBLE_EQ(num(average, "exam"), 0.5);
  EXPECT_DOUBLE_EQ(num(average, "top3"), 2.0 / 3);
  EXPECT_DOUBLE_EQ(num(average, "rr"), 13.0 / 36);
  EXPECT_DOUBLE_EQ(num(average, "ap"), 25.0 / 72);
  // Tie-independent: one element ahead of the tie plus (3 − 1)/(1 + 1) inside it.
  for (const auto& [key, row] : rows) {
    EXPECT_EQ(num(row, "e_inspect"), 3) << key;
    EXPECT_EQ(num(row, "wasted_effort"), 2) << key;
  }
}

TEST_F(EvalCommand, MetricConventionsAsOptions) {
  // Average rule: the first fault's expected position is 3 (see above).
  const std::string base = "eval " + path("ochiai.csv") + " --truth " + path("truth.txt") + " --level line --ties average --format csv";
  const RunResult hits = run_dlfl(base + " --top-n-rule hits --top 2,3");
  ASSERT_EQ(hits.exit_code, 0) << hits.err;
  auto rows = rows_of(hits.out);
  EXPECT_EQ(num(rows["line/average"], "top2"), 0);  // 3 > 2 (expected rule: 1/3)
  EXPECT_EQ(num(rows["line/average"], "top3"), 1);  // 3 <= 3 (expected rule: 2/3)
  const RunResult program = run_dlfl(base + " --exam-base executable --executable 30");
  ASSERT_EQ(program.exit_code, 0) << program.err;
  rows = rows_of(program.out);
  EXPECT_DOUBLE_EQ(num(rows["line/average"], "exam"), 3.0 / 30);
  EXPECT_EQ(num(rows["line/average"], "elements"), 30);

  const RunResult missing = run_dlfl(base + " --exam-base executable");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("dlfl: error: --exam-base executable needs --executable N"));
  const RunResult stray = run_dlfl(base + " --executable 30");
  EXPECT_EQ(stray.exit_code, 2);
  EXPECT_THAT(stray.err, HasSubstr("--executable N goes with --exam-base executable"));
}

// `dlfl rank` writes ef/ep/nf/np into its CSV and JSON, and eval reads them back: over
// executed elements, the two lines no test ran leave the ranking (EXAM 2/2, not 2/4).
TEST_F(EvalCommand, ExecutedExamBaseOnRankFilesFromTheirEfEp) {
  // Line 2 only the failing test runs (Ochiai 1), line 1 both (0.71), lines 3-4 none.
  write_text(dir_ / "sfl/spectra.csv", "name\nsrc/a.cpp#f:1\nsrc/a.cpp#f:2\nsrc/a.cpp#f:3\nsrc/a.cpp#f:4\n");
  write_text(dir_ / "sfl/matrix.txt", "1 1 0 0 -\n1 0 0 0 +\n");
  write_text(dir_ / "sfl/tests.csv", "name,outcome,runtime,stacktrace\nT.fails,FAIL,1,\nT.passes,PASS,1,\n");
  write_text(dir_ / "line1.txt", "src/a.cpp:1\n");
  for (const std::string format : {"csv", "json"}) {
    SCOPED_TRACE(format);
    const std::string ranking = path("ranked." + format);
    const RunResult rank = run_dlfl("rank " + path("sfl") + " --format " + format + " -o " + ranking);
    ASSERT_EQ(rank.exit_code, 0) << rank.err;
    if (format == "csv") {
      EXPECT_THAT(slurp(ranking), StartsWith("rank,rank_best,rank_worst,element,file,line,function,kind,language,score,ef,ep,nf,np\n"
                                             "1,1,1,src/a.cpp#f:2,src/a.cpp,2,f,code,cpp,1,1,0,0,1\n"));
    } else {
      EXPECT_THAT(slurp(ranking), HasSubstr("\"score\":0.0,\"ef\":0,\"ep\":0,\"nf\":1,\"np\":1}"));
    }
    const std::string eval = "eval " + ranking + " --truth " + path("line1.txt") + " --level line --ties best --format csv";
    const RunResult all = run_dlfl(eval);
    ASSERT_EQ(all.exit_code, 0) << all.err;
    EXPECT_EQ(num(rows_of(all.out)["line/best"], "elements"), 4);
    EXPECT_DOUBLE_EQ(num(rows_of(all.out)["line/best"], "exam"), 2.0 / 4);
    const RunResult executed = run_dlfl(eval + " --exam-base executed");
    ASSERT_EQ(executed.exit_code, 0) << executed.err;
    EXPECT_EQ(num(rows_of(executed.out)["line/best"], "elements"), 2);
    EXPECT_DOUBLE_EQ(num(rows_of(executed.out)["line/best"], "exam"), 2.0 / 2);
  }
  // A ranking without ef/ep (another tool's) cannot tell: every element counts as executed.
  const RunResult bare = run_dlfl("eval " + path("ochiai.csv") + " --truth " + path("truth.txt") +
                                  " --level line --ties best --format csv --exam-base executed");
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_EQ(num(rows_of(bare.out)["line/best"], "elements"), 6);
  // A malformed count is one line naming the file and row.
  write_text(dir_ / "bad.csv", "rank,rank_best,rank_worst,element,file,line,function,kind,score,ef,ep\n"
                               "1,1,1,src/a.cpp#f:1,src/a.cpp,1,f,code,1,-1,0\n");
  const RunResult bad = run_dlfl("eval " + path("bad.csv") + " --truth " + path("line1.txt"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("bad.csv:2: ef and ep must be non-negative numbers"));
}

TEST_F(EvalCommand, FunctionAndFileLevels) {
  const RunResult r = run_dlfl("eval " + path("ochiai.csv") + " --truth " + path("truth.txt") + " --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 9u);  // 3 levels x 3 rules
  // Functions by their best line: f 0.9 | g 0.7, h 0.7 | k 0.1. Line faults match the
  // function whose lines span them: g (lines 5-6) and k. Faults at 2..3 (tie) and 4.
  const auto& best = rows["function/best"];
  EXPECT_EQ(num(best, "elements"), 4);
  EXPECT_EQ(num(best, "first_rank"), 2);
  EXPECT_DOUBLE_EQ(num(best, "ap"), 0.5);  // (1/2 + 2/4) / 2
  const auto& worst = rows["function/worst"];
  EXPECT_EQ(num(worst, "first_rank"), 3);
  EXPECT_DOUBLE_EQ(num(worst, "ap"), 5.0 / 12);  // (1/3 + 2/4) / 2
  const auto& average = rows["function/average"];
  EXPECT_DOUBLE_EQ(num(average, "first_rank"), 2.5);  // 2 + (2 − 1)/(1 + 1)
  EXPECT_DOUBLE_EQ(num(average, "exam"), 2.5 / 4);
  EXPECT_DOUBLE_EQ(num(average, "rr"), 5.0 / 12);  // (1/2 + 1/3) / 2
  // Files by their best line: a.cpp 0.9, b.cpp 0.7, c.cpp 0.1; faulty a.cpp and c.cpp.
  for (const char* rule : {"best", "worst", "average"}) {
    const auto& file = rows[std::string("file/") + rule];
    EXPECT_EQ(num(file, "elements"), 3) << rule;
    EXPECT_EQ(num(file, "first_rank"), 1) << rule;
    EXPECT_DOUBLE_EQ(num(file, "ap"), 5.0 / 6) << rule;  // (1 + 2/3) / 2
  }
}

TEST_F(EvalCommand, JsonAndGzoltarRankingsGiveTheSameMetrics) {
  // The same ranking through `dlfl rank`'s other formats: JSON (dlfl's own) and GZoltar's.
  write_text(dir_ / "ochiai.ranking.csv",
             "name;suspiciousness_value\nsrc/a.cpp#f:2;0.9\nsrc/a.cpp#g:5;0.7\nsrc/a.cpp#g:6;0.7\n"
             "src/b.cpp#h:1;0.7\nsrc/a.cpp#f:3;0.2\nsrc/c.cpp#k:9;0.1\n");
  const RunResult csv = run_dlfl("eval " + path("ochiai.csv") + " --truth " + path("truth.txt") + " --format json");
  const RunResult gz = run_dlfl("eval " + path("ochiai.ranking.csv") + " --truth " + path("truth.txt") + " --format json");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  ASSERT_EQ(gz.exit_code, 0) << gz.err;
  EXPECT_EQ(csv.out, gz.out);  // formula "ochiai" from the file name, bug from truth.txt
  const auto doc = nlohmann::json::parse(csv.out);
  ASSERT_EQ(doc["evaluations"].size(), 3u);
  const auto& line = doc["evaluations"][0];
  EXPECT_EQ(line["bug"], "truth");
  EXPECT_EQ(line["technique"], "ochiai");
  EXPECT_EQ(line["level"], "line");
  EXPECT_EQ(line["e_inspect"], 3.0);
  EXPECT_EQ(line["worst"]["first_rank"], 4.0);
  EXPECT_DOUBLE_EQ(line["average"]["top3"].get<double>(), 2.0 / 3);
}

TEST_F(EvalCommand, TableIsTheDefault) {
  const RunResult r = run_dlfl("eval " + path("ochiai.csv") + " --truth " + path("truth.txt") +
                               " --level file --ties average --id bug-7 --technique mine");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("bug    technique  level  ties     elements"));
  EXPECT_THAT(r.out, HasSubstr("\nbug-7  mine       file   average         3"));
  EXPECT_THAT(r.out, HasSubstr("0.8333"));
}

TEST_F(EvalCommand, ManifestEntryIsGroundTruth) {
  // Deleted line 6 of a.cpp is faulty; c.cpp, changed by added lines only, counts as a file.
  write_text(dir_ / "manifest.jsonl",
             R"({"id": "p+q#1", "project": "p+q", "files": [)"
             R"({"old_name": "src/a.cpp", "new_name": "src/a.cpp", "change_type": "MODIFY", "deleted_lines": [6], "added_lines": [6]},)"
             R"({"old_name": "src/c.cpp", "new_name": "src/c.cpp", "change_type": "MODIFY", "deleted_lines": [], "added_lines": [12]}]})"
             "\n");
  const RunResult r = run_dlfl("eval " + path("ochiai.csv") + " --bug " + path("manifest.jsonl") + ":p+q#1 --level line --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = rows_of(r.out);
  const auto& best = rows["line/best"];
  EXPECT_EQ(best.at("bug"), "p+q#1");
  EXPECT_EQ(num(best, "first_rank"), 2);
  // The whole-file fault c.cpp makes each ranked line of c.cpp faulty (c.cpp:9 at 6), so
  // the metrics are truth.txt's: AP = (1/2 + 2/6) / 2.
  EXPECT_EQ(num(best, "n_faulty"), 2);
  EXPECT_EQ(num(best, "missing_faulty"), 0);
  EXPECT_DOUBLE_EQ(num(best, "ap"), 5.0 / 12);
  const RunResult unknown = run_dlfl("eval " + path("ochiai.csv") + " --bug " + path("manifest.jsonl") + ":p+q#2");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err, "dlfl: error: " + path("manifest.jsonl") + ": no bug with id 'p+q#2'\n");
}

TEST_F(EvalCommand, BatchFeedsCompare) {
  write_text(dir_ / "other.txt", "src/b.cpp:1\n");
  write_text(dir_ / "batch.csv", "bug,ranking,truth\np#1,ochiai.csv,truth.txt\np#2,ochiai.csv,other.txt\n");
  const RunResult r = run_dlfl("eval --batch " + path("batch.csv") + " --level file --ties best --format csv -o " +
                               path("per-bug.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto text = slurp(dir_ / "per-bug.csv");
  EXPECT_THAT(text, HasSubstr("\np#1,ochiai,file,best,3,2,0,1,1,"));
  EXPECT_THAT(text, HasSubstr("\np#2,ochiai,file,best,3,1,0,1,2,"));
  const RunResult c = run_dlfl("compare -i " + path("per-bug.csv") + " -g all --format json --metric mrr,exam");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  EXPECT_EQ(doc["groups"][0]["n"], 2);
  EXPECT_DOUBLE_EQ(doc["groups"][0]["mrr"].get<double>(), 0.75);  // (1 + 1/2) / 2
  EXPECT_DOUBLE_EQ(doc["groups"][0]["metrics"]["exam"]["mean"].get<double>(), 0.5);  // (1/3 + 2/3) / 2
}

TEST_F(EvalCommand, ErrorsAreOneLineExitTwoAndLeaveNoOutput) {
  write_text(dir_ / "bad.csv", std::string(kRankingCsv) + "7,7,7,src/d.cpp#z:1,src/d.cpp,1,z,code,high\n");
  const RunResult r = run_dlfl("eval " + path("bad.csv") + " --truth " + path("truth.txt") + " -o " + path("out.csv"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "dlfl: error: " + path("bad.csv") + ":8: score 'high' is not a number\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out.csv"));

  write_text(dir_ / "bad-truth.txt", "src/a.cpp:0\n");
  const RunResult truth = run_dlfl("eval " + path("ochiai.csv") + " --truth " + path("bad-truth.txt"));
  EXPECT_EQ(truth.exit_code, 2);
  EXPECT_THAT(truth.err, StartsWith("dlfl: error: " + path("bad-truth.txt") + ":1: "));

  // A file of NUL bytes is no truth file (it used to be one faulty element, exit 0).
  write_text(dir_ / "nul-truth.txt", std::string(4096, '\0'));
  const RunResult nul = run_dlfl("eval " + path("ochiai.csv") + " --truth " + path("nul-truth.txt"));
  EXPECT_EQ(nul.exit_code, 2);
  EXPECT_EQ(nul.err, "dlfl: error: " + path("nul-truth.txt") + ":1: holds a NUL byte: not a truth file\n");

  const RunResult both = run_dlfl("eval " + path("ochiai.csv") + " --truth a --bug m:1");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.err, HasSubstr("exactly one of --truth"));

  write_text(dir_ / "batch.csv", "bug,ranking,truth\np#1,missing.csv,truth.txt\n");
  const RunResult batch = run_dlfl("eval --batch " + path("batch.csv"));
  EXPECT_EQ(batch.exit_code, 2);
  EXPECT_THAT(batch.err, StartsWith("dlfl: error: " + path("batch.csv") + ":2: " + path("missing.csv")));
}

}  // namespace
}  // namespace dlfl::testing
