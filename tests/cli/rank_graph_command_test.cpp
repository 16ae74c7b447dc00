// `dlfl rank` with blocks, call-graph propagation and FLITSR; `dlfl eval --level block`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::string kExample = source_path("examples/spectra/softmax");

void write_file(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

TEST(RankBlocks, LinesRunTogetherAreOneElementWithTheirSpan) {
  // softmax 20, 21, 23 share a column; 24 (the fault) differs; 26 shares 20's column but
  // 24 lies between, so it is a block of its own.
  const RunResult r = run_dlfl("rank " + kExample + " -g block --format csv --ties best");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("rank,rank_best,rank_worst,element,file,line,function,kind,language,score,last_line,ef,ep,nf,np\n"));
  EXPECT_THAT(r.out, HasSubstr("1,1,1,src/ops/softmax.cpp#softmax:24,src/ops/softmax.cpp,24,softmax,code,cpp,1,24,2,0,0,6\n"));
  EXPECT_THAT(r.out, HasSubstr(",src/ops/softmax.cpp#softmax:20-23,src/ops/softmax.cpp,20,softmax,code,cpp,"));
  EXPECT_THAT(r.out, HasSubstr(",src/ops/softmax.cpp#softmax:26,src/ops/softmax.cpp,26,softmax,code,cpp,"));
  // Line rankings keep their columns.
  const RunResult lines = run_dlfl("rank " + kExample + " --format csv");
  EXPECT_THAT(lines.out, StartsWith("rank,rank_best,rank_worst,element,file,line,function,kind,language,score,ef,ep,nf,np\n"));
}

TEST(RankBlocks, EvalCountsABlockAsOneElement) {
  TempDir dir("rank-blocks");
  const RunResult r = run_dlfl("rank " + kExample + " -g block --format csv -o " + (dir / "blocks.csv").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  write_file(dir / "truth.txt", "src/ops/softmax.cpp:21\n");
  // Line 21 sits in block 20-23, ranked 2-3 with block 26 (average 2.5).
  const RunResult e = run_dlfl("eval " + (dir / "blocks.csv").string() + " --truth " + (dir / "truth.txt").string() +
                               " --level line --ties average --format csv");
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_THAT(e.out, HasSubstr(",line,average,"));
  EXPECT_THAT(e.out, HasSubstr(",2.5,"));
  // The line ranking read at block level finds the same blocks from equal scores.
  ASSERT_EQ(run_dlfl("rank " + kExample + " --format csv -o " + (dir / "lines.csv").string()).exit_code, 0);
  const RunResult b = run_dlfl("eval " + (dir / "lines.csv").string() + " --truth " + (dir / "truth.txt").string() +
                               " --level block --ties average --format csv");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_THAT(b.out, HasSubstr(",block,average,"));
  EXPECT_THAT(b.out, HasSubstr(",2.5,"));
}

TEST(RankPropagate, NeighborsAndPrflRankFunctionsThenLines) {
  TempDir dir("rank-graph");
  write_file(dir / "g.tsv",
             "dlfl-call-graph\t1\nfunction\tcross_entropy\tsrc/ops/loss.cpp\t38\nfunction\tsoftmax\tsrc/ops/softmax.cpp\t18\n"
             "function\tTensor::at\tsrc/tensor.cpp\t30\ncall\tcross_entropy\tsoftmax\tdirect\ncall\tsoftmax\tTensor::at\tdirect\n");
  for (const std::string technique : {"neighbors", "prfl"}) {
    const RunResult r = run_dlfl("rank " + kExample + " --propagate " + technique + " --call-graph " +
                                 (dir / "g.tsv").string() + " --format csv --top 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(",src/ops/softmax.cpp#softmax:24,")) << technique;
    const RunResult f = run_dlfl("rank " + kExample + " --propagate " + technique + " --call-graph " +
                                 (dir / "g.tsv").string() + " -g function --format csv --top 1");
    ASSERT_EQ(f.exit_code, 0) << f.err;
    EXPECT_THAT(f.out, HasSubstr(",src/ops/softmax.cpp#softmax:20,src/ops/softmax.cpp,20,softmax,")) << technique;
  }
}

TEST(RankPropagate, SecondRunReadsTheCachedGraphAndRanksAlike) {
  TempDir dir("rank-graph-cache");
  const std::string graph = "dlfl-call-graph\t1\nfunction\tcross_entropy\tsrc/ops/loss.cpp\t38\n"
                            "function\tsoftmax\tsrc/ops/softmax.cpp\t18\ncall\tcross_entropy\tsoftmax\tdirect\n";
  write_file(dir / "g.tsv", graph);
  const std::string command = "rank " + kExample + " --propagate neighbors --format csv --call-graph " + (dir / "g.tsv").string();
  const RunResult first = run_dlfl(command);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_TRUE(std::filesystem::exists(dir / "g.tsv.cache"));
  const RunResult second = run_dlfl(command);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  // Propagation scores the lines itself, and still names a formula undefined for some.
  const RunResult nan = run_dlfl("rank " + kExample + " -f 'ef/(ep-ep)' --propagate neighbors --call-graph " +
                                 (dir / "g.tsv").string());
  EXPECT_EQ(nan.exit_code, 0) << nan.err;
  EXPECT_THAT(nan.err, HasSubstr("formula 'ef/(ep-ep)' is undefined (NaN) for 2 elements; they rank last"));
  // The file changes: the cache is not believed, the new graph is read (and a bad one fails).
  write_file(dir / "g.tsv", graph + "call\tsoftmax\tghost\tdirect\n");
  const RunResult changed = run_dlfl(command);
  EXPECT_EQ(changed.exit_code, 2);
  EXPECT_THAT(changed.err, HasSubstr("g.tsv:5: call to unknown function 'ghost'"));
}

TEST(RankPropagate, BadGraphInputIsAOneLineErrorWithExitCode2) {
  TempDir dir("rank-graph-bad");
  const RunResult missing = run_dlfl("rank " + kExample + " --propagate prfl");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("--propagate prfl needs --call-graph FILE"));

  write_file(dir / "foreign.tsv", "dlfl-call-graph\t1\nfunction\tmain\tm.cpp\t1\nfunction\tparse\tp.cpp\t1\n");
  const RunResult foreign = run_dlfl("rank " + kExample + " --propagate neighbors --call-graph " + (dir / "foreign.tsv").string());
  EXPECT_EQ(foreign.exit_code, 2);
  EXPECT_THAT(foreign.err, StartsWith("dlfl: error: " + (dir / "foreign.tsv").string() + ": none of the call graph's 2"));
  EXPECT_EQ(std::count(foreign.err.begin(), foreign.err.end(), '\n'), 1);

  write_file(dir / "dangling.tsv", "dlfl-call-graph\t1\nfunction\tsoftmax\ts.cpp\t1\ncall\tsoftmax\tnowhere\tdirect\n");
  const RunResult dangling = run_dlfl("rank " + kExample + " --propagate prfl --call-graph " + (dir / "dangling.tsv").string());
  EXPECT_EQ(dangling.exit_code, 2);
  EXPECT_THAT(dangling.err, HasSubstr((dir / "dangling.tsv").string() + ":3: call to unknown function 'nowhere'"));

  // A malformed record: FILE:LINE in one line, and no cache of the file left behind.
  write_file(dir / "malformed.tsv", "dlfl-call-graph\t1\nfunction\tsoftmax\ts.cpp\t1\ncall\tsoftmax\tsoftmax\n");
  const RunResult malformed = run_dlfl("rank " + kExample + " --propagate neighbors --call-graph " + (dir / "malformed.tsv").string());
  EXPECT_EQ(malformed.exit_code, 2);
  EXPECT_EQ(malformed.err, "dlfl: error: " + (dir / "malformed.tsv").string() +
                               ":3: malformed call record (expected call<TAB>CALLER<TAB>CALLEE<TAB>KIND)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "malformed.tsv.cache"));

  // A cycle is normal; an empty graph ranks with a warning.
  write_file(dir / "cycle.tsv", "dlfl-call-graph\t1\nfunction\tsoftmax\ts.cpp\t1\nfunction\tTensor::at\tt.cpp\t1\n"
                                "call\tsoftmax\tTensor::at\tdirect\ncall\tTensor::at\tsoftmax\tdirect\ncall\tsoftmax\tsoftmax\tdirect\n");
  EXPECT_EQ(run_dlfl("rank " + kExample + " --propagate prfl --call-graph " + (dir / "cycle.tsv").string()).exit_code, 0);
  write_file(dir / "empty.tsv", "dlfl-call-graph\t1\n");
  const RunResult empty = run_dlfl("rank " + kExample + " --propagate neighbors --call-graph " + (dir / "empty.tsv").string());
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_THAT(empty.err, HasSubstr("the call graph is empty"));
}

TEST(RankMultiFault, FlitsrPutsItsBasisFirst) {
  const RunResult r = run_dlfl("rank " + kExample + " --multi-fault flitsr --format csv --top 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(",src/ops/softmax.cpp#softmax:24,"));
  const RunResult both = run_dlfl("rank " + kExample + " --multi-fault flitsr --propagate prfl --call-graph x");
  EXPECT_EQ(both.exit_code, 2);
}

}  // namespace
}  // namespace dlfl::testing
