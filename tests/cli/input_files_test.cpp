// Inputs a user can hand any command by mistake or malice: a FIFO, a device, a gigabyte
// without a line break, a file of NUL bytes. Each must end at once in one line
// "dlfl: error: FILE[:LINE]: what" and exit 2, reading a bounded prefix at most. Commands
// run under `timeout`, so that a regression fails instead of hanging the suite.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "cli_runner.h"
#include "measured_run.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

RunResult run_dlfl_limited(const std::string& args) {
  return run_command("timeout 20 " + std::string(DLFL_BINARY) + " " + args);
}

void expect_one_line_error(const RunResult& r, const std::string& prefix) {
  EXPECT_EQ(r.exit_code, 2) << r.err;  // 124: timed out, i.e. hung
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + prefix)) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

class InputFiles : public ::testing::Test {
 protected:
  fs::path path(const std::string& name) const { return dir_ / name; }
  fs::path fifo() {
    const fs::path p = path("fifo");
    if (!fs::exists(p)) {
      EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0);
    }
    return p;
  }
  TempDir dir_{"input-files"};
};

TEST_F(InputFiles, AFifoIsRefusedAtOnceByEveryCommandThatReadsAFile) {
  const fs::path f = fifo();
  const std::string not_regular = f.string() + ": not a regular file";
  write_text(path("truth.txt"), "a.cpp:1\n");
  write_text(path("r.csv"), "rank,element,score\n1,a.cpp:1,0.5\n");
  expect_one_line_error(run_dlfl_limited("rank " + q(f)), not_regular);
  expect_one_line_error(run_dlfl_limited("convert " + q(f) + " " + q(path("out.dlfl"))), not_regular);
  expect_one_line_error(run_dlfl_limited("eval " + q(f) + " --truth " + q(path("truth.txt"))), not_regular);
  expect_one_line_error(run_dlfl_limited("eval " + q(path("r.csv")) + " --truth " + q(f)), not_regular);
  expect_one_line_error(run_dlfl_limited("bugset stats " + q(f)), not_regular);
  expect_one_line_error(run_dlfl_limited("collect --tests " + q(f) + " --cmd 'true {}' -o " + q(path("o.dlfl"))),
                        not_regular);
  EXPECT_FALSE(fs::exists(path("out.dlfl")));
  EXPECT_FALSE(fs::exists(path("o.dlfl")));
}

TEST_F(InputFiles, DevZeroIsRefusedAsTestListAndAsProbeMap) {
  write_text(path("tests.txt"), "t1\n");
  write_text(path("probes.map"), "dlfl-probe-map\t1\nprobes\t0\n");
  expect_one_line_error(run_dlfl_limited("collect --tests /dev/zero --cmd 'true {}' -o " + q(path("o.dlfl"))),
                        "/dev/zero: not a regular file");
  expect_one_line_error(run_dlfl_limited("collect --runtime --tests " + q(path("tests.txt")) +
                                         " --cmd 'true {}' --probe-map /dev/zero -o " + q(path("o.dlfl"))),
                        "/dev/zero: not a regular file");
  expect_one_line_error(run_dlfl_limited("collect --runtime --tests " + q(path("tests.txt")) +
                                         " --cmd 'true {}' --probe-map " + q(fifo()) + " -o " + q(path("o.dlfl"))),
                        fifo().string() + ": not a regular file");
  EXPECT_FALSE(fs::exists(path("o.dlfl")));
}

TEST_F(InputFiles, ATestListLineOverTheLimitNamesFileAndLine) {
  write_text(path("tests.txt"), "t1\n" + std::string((std::size_t{1} << 20) + 1, 'x') + "\nt3\n");
  expect_one_line_error(run_dlfl_limited("collect --tests " + q(path("tests.txt")) + " --cmd 'true {}' -o " + q(path("o.dlfl"))),
                        path("tests.txt").string() + ":2: test name longer than the 1 MiB limit");
}

TEST_F(InputFiles, AProbeMapLineOverTheLimitNamesFileAndLine) {
  write_text(path("tests.txt"), "t1\n");
  write_text(path("probes.map"), "dlfl-probe-map\t1\nroot\t" + std::string((std::size_t{1} << 20) + 1, 'r') + "\n");
  expect_one_line_error(run_dlfl_limited("collect --runtime --tests " + q(path("tests.txt")) + " --cmd 'true {}' --probe-map " +
                                         q(path("probes.map")) + " -o " + q(path("o.dlfl"))),
                        path("probes.map").string() + ":2: line longer than the 1 MiB limit");
}

// A GZoltar directory whose matrix.txt is 64 MiB of NUL bytes (no line break): refused
// after one row's worth of bytes, in memory far below the file's size.
TEST_F(InputFiles, AGarbageMatrixIsRefusedInBoundedMemory) {
  constexpr std::size_t kSize = std::size_t{64} << 20;
  write_text(path("g/spectra.csv"), "name\na.cpp:1\n");
  write_text(path("g/tests.csv"), "name,outcome,runtime,stacktrace\nt1,PASS,0,\n");
  write_text(path("g/matrix.txt"), std::string(kSize, '\0'));
  const Measured m = run_measured({"rank", path("g").string()}, path("err.txt"));
  EXPECT_EQ(m.exit_code, 2) << m.err;
  EXPECT_THAT(m.err, StartsWith("dlfl: error: " + path("g/matrix.txt").string() + ":1: matrix row longer than the 1 MiB limit"));
  EXPECT_EQ(std::count(m.err.begin(), m.err.end(), '\n'), 1);
  EXPECT_LT(m.max_rss_kib, static_cast<long>(kSize / 1024 / 4)) << "peak RSS " << m.max_rss_kib << " KiB";
}

TEST_F(InputFiles, GarbageRankingsAndMatrixMarketAreRefusedInBoundedMemory) {
  constexpr std::size_t kSize = std::size_t{64} << 20;
  write_text(path("r.csv"), std::string(kSize, '\0'));
  write_text(path("truth.txt"), "a.cpp:1\n");
  const Measured ranking = run_measured({"eval", path("r.csv").string(), "--truth", path("truth.txt").string()}, path("err.txt"));
  EXPECT_EQ(ranking.exit_code, 2) << ranking.err;
  EXPECT_THAT(ranking.err, StartsWith("dlfl: error: " + path("r.csv").string() + ":1: not a ranking file"));
  EXPECT_LT(ranking.max_rss_kib, static_cast<long>(kSize / 1024 / 4)) << "peak RSS " << ranking.max_rss_kib << " KiB";

  write_text(path("m.elements.csv"), "name\na.cpp:1\n");
  write_text(path("m.tests.csv"), "name,outcome,failure_weight\nt1,PASS,0\n");
  write_text(path("m.mtx"), std::string(kSize, '\0'));
  const Measured mtx = run_measured({"rank", path("m.mtx").string()}, path("err.txt"));
  EXPECT_EQ(mtx.exit_code, 2) << mtx.err;
  EXPECT_THAT(mtx.err, StartsWith("dlfl: error: " + path("m.mtx").string() + ":1: line longer than the 1 MiB limit"));
  EXPECT_LT(mtx.max_rss_kib, static_cast<long>(kSize / 1024 / 4)) << "peak RSS " << mtx.max_rss_kib << " KiB";
}

TEST_F(InputFiles, AnLcovTracefileOfNulBytesOrPlainTextIsAnError) {
  write_text(path("t.tests.csv"), "name,outcome,failure_weight\nt1,PASS,0\n");
  write_text(path("t.info"), "TN:\n" + std::string(1000, '\0') + "\n");
  expect_one_line_error(run_dlfl_limited("convert " + q(path("t.info")) + " " + q(path("out.dlfl"))),
                        path("t.info").string() + ":2: NUL byte: not an lcov tracefile");
  write_text(path("t.info"), std::string(std::size_t{4} << 20, '\0'));
  expect_one_line_error(run_dlfl_limited("convert " + q(path("t.info")) + " " + q(path("out.dlfl"))),
                        path("t.info").string() + ":1: line longer than the 1 MiB limit");
  write_text(path("t.info"), "Hello, this is a letter.\nNot a tracefile at all.\n");
  expect_one_line_error(run_dlfl_limited("convert " + q(path("t.info")) + " " + q(path("out.dlfl"))),
                        path("t.info").string() + ":1: expected an lcov record KEY:VALUE or end_of_record, found 'Hello, this is a letter.'");
  write_text(path("t.info"), "");
  expect_one_line_error(run_dlfl_limited("convert " + q(path("t.info")) + " " + q(path("out.dlfl"))),
                        path("t.info").string() + ": holds no lcov record");
  EXPECT_FALSE(fs::exists(path("out.dlfl")));
}

TEST_F(InputFiles, AnErrorMessageHoldingANulByteIsPrintedWhole) {
  const std::string header = "rank,rank_best,rank_worst,element,file,line,function,kind,score\n";
  write_text(path("r.csv"), header + "1,1,1,a.cpp:1,a.cpp,1,,co" + std::string(1, '\0') + "de,0.5\n");
  write_text(path("truth.txt"), "a.cpp:1\n");
  expect_one_line_error(run_dlfl_limited("eval " + q(path("r.csv")) + " --truth " + q(path("truth.txt"))),
                        path("r.csv").string() + ":2: kind 'co\\x00de' is neither code nor extrinsic");
}

TEST_F(InputFiles, FormulasWithMinusWorkAndAnUnknownOneIsEchoedInPart) {
  const std::string spectrum = q(source_path("examples/spectra/softmax"));
  for (const std::string formula : {"ef-1", "-ef+2", "ef*-1", "2--ef", "ef - ep"}) {
    const RunResult r = run_dlfl_limited("rank " + spectrum + " --top 1 --formula '" + formula + "'");
    EXPECT_EQ(r.exit_code, 0) << formula << ": " << r.err;
  }
  const RunResult r = run_dlfl_limited("rank " + spectrum + " --formula " + std::string(100000, 'x'));
  expect_one_line_error(r, "unknown formula '" + std::string(60, 'x') + "...'");
  EXPECT_LT(r.err.size(), 200u);
}

}  // namespace
}  // namespace dlfl::testing
