// `dlfl versions` on a tiny C fixture (versions_fixture/: a classifier, five tests,
// five versions): a directory version holding only the changed file (laid over the
// original) and a patch deleting a statement are kept with the truth their diffs give; a patch that does not apply, a version identical to the
// original and one that changes only a comment are discarded with their reasons.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "../../cli/cli_runner.h"
#include "../../support/have_program.h"
#include "dlfl/lab/bench/results_store.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const fs::path kFixture = fs::path(DLFL_SOURCE_DIR) / "tests/lab/bench/versions_fixture";

TEST(VersionBatch, DirectoriesAndPatchesKeptOrDiscardedWithTheirReasons) {
  for (const char* tool : {"gcc", "gcov", "cmake", "ninja", "git", "diff"})
    if (!dlfl::testing::have_program(tool))
      GTEST_SKIP() << "needs gcc, gcov, cmake, ninja, git and diff (" << tool << " is missing)";
  dlfl::testing::TempDir dir{"versions"};
  std::string versions;
  for (const char* v : {"dirfix", "same", "missing.patch", "comment.patch", "broken.patch"})
    versions += " " + (kFixture / "versions" / v).string();
  const auto r = dlfl::testing::run_dlfl("versions --original " + (kFixture / "original").string() + versions +
                                         " --tests " + (kFixture / "tests.txt").string() +
                                         " --cmd '{build}/prog {}' -f ochiai --test-jobs 2 -q -o " +
                                         (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("dlfl versions: 5 faulty versions, 2 kept, 3 discarded"));

  std::map<std::string, FaultRecord> records;
  std::istringstream in(dlfl::testing::slurp(dir / "out" / std::string(kResultsFileName)));
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    FaultRecord record = parse_record(line, "results.jsonl", ++n);
    records.emplace(record.fault, std::move(record));
  }
  ASSERT_EQ(records.size(), 5u);
  // `if (x < 0)` became `if (x <= 0)`: the changed line; only test "0" differs.
  const FaultRecord& dirfix = records.at("dirfix");
  ASSERT_TRUE(dirfix.kept) << dirfix.reason << ": " << dirfix.detail;
  EXPECT_EQ(dirfix.op, "version");
  EXPECT_THAT(dirfix.faulty, ElementsAre("prog.c:5:classify"));
  EXPECT_EQ(dirfix.tests, 5u);
  EXPECT_THAT(dirfix.failing_tests, ElementsAre("0"));
  // `return 0;` deleted: the executable lines above and below the gap.
  const FaultRecord& missing = records.at("missing");
  ASSERT_TRUE(missing.kept) << missing.reason << ": " << missing.detail;
  EXPECT_EQ(missing.op, "patch");
  EXPECT_THAT(missing.faulty, ElementsAre("prog.c:7:classify", "prog.c:8:classify"));
  EXPECT_THAT(missing.failing_tests, ElementsAre("0"));
  ASSERT_EQ(missing.results.size(), 1u);
  EXPECT_TRUE(missing.results[0].found);

  EXPECT_EQ(records.at("same").reason, "no executable change");
  EXPECT_EQ(records.at("comment").reason, "no test fails");
  EXPECT_EQ(records.at("broken").reason, "patch fails");
  EXPECT_THAT(records.at("broken").detail, HasSubstr("patch does not apply"));
  const std::string discarded = dlfl::testing::slurp(dir / "out/discarded.csv");
  EXPECT_THAT(discarded, HasSubstr("patch fails"));

  // Other metric conventions are another configuration: refused in this directory, and
  // in a new one EXAM over the executed lines only is larger (main's lines and the
  // classifier's run; main's `return 2;`, which no test runs, does not count).
  const auto run_missing = [&](const fs::path& patch, const fs::path& out, const std::string& extra) {
    return dlfl::testing::run_dlfl("versions --original " + (kFixture / "original").string() + " " + patch.string() +
                                   " --tests " + (kFixture / "tests.txt").string() +
                                   " --cmd '{build}/prog {}' -f ochiai --test-jobs 2 -q --exam-base executed "
                                   "--top-n-rule hits -o " + out.string() + extra);
  };
  const auto refused = run_missing(kFixture / "versions/missing.patch", dir / "out", "");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("holds results of another versions configuration"));
  // (-p 0: the same patch without its a/ and b/ prefixes.)
  std::string patch = dlfl::testing::slurp(kFixture / "versions/missing.patch");
  for (const char* prefix : {"--- a/", "+++ b/"}) patch.erase(patch.find(prefix) + 4, 2);
  dlfl::testing::write_text(dir / "p0/missing.patch", patch);
  const auto executed = run_missing(dir / "p0/missing.patch", dir / "executed", " -p 0");
  ASSERT_EQ(executed.exit_code, 0) << executed.err;
  std::istringstream one(dlfl::testing::slurp(dir / "executed" / std::string(kResultsFileName)));
  std::string line;
  ASSERT_TRUE(std::getline(one, line));
  const FaultRecord over_executed = parse_record(line, "results.jsonl", 1);
  ASSERT_EQ(over_executed.results.size(), 1u);
  EXPECT_EQ(over_executed.results[0].first_rank, missing.results[0].first_rank);
  EXPECT_GT(over_executed.results[0].exam, missing.results[0].exam);
  for (const double hit : over_executed.results[0].top) EXPECT_TRUE(hit == 0 || hit == 1) << hit;  // counted hits
}

}  // namespace
}  // namespace dlfl::bench
