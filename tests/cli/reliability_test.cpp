// Issue #14's reproducers, run as a hostile user would: each must end in one line
// "dlfl: error: FILE[:LINE]: what" and exit 2, leaving no output and no temporary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "cli_runner.h"
#include "dlfl/formats/native_format.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// One line on stderr, starting "dlfl: error: PREFIX", exit code 2.
void expect_one_line_error(const RunResult& r, const std::string& prefix) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + prefix)) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

const char* const kRankingHeader = "rank,rank_best,rank_worst,element,file,line,function,kind,score\n";

class Reliability : public ::testing::Test {
 protected:
  fs::path path(const std::string& name) const { return dir_ / name; }
  TempDir dir_{"reliability"};
};

TEST_F(Reliability, NativeFileWithValidChecksumButOutOfRangeTestIdIsRefused) {
  // Written through the model without validation: the checksum is right, the structure
  // is not (element 1 covered by test 7 of 2). rank segfaulted in gather_counts.
  std::vector<ElementRecord> records(2);
  std::vector<TestCase> tests = {TestCase::fail("T0"), TestCase::pass("T1")};
  const Spectrum bad(StringPool(), std::move(records), std::move(tests),
                     Coverage(2, std::vector<std::uint64_t>{0, 1, 2}, std::vector<std::uint32_t>{0, 7}, false));
  io::write_native(bad, path("bad.dlfl"));
  const std::vector<std::string> before = listing(dir_.path());

  RunResult r = run_dlfl("rank " + q(path("bad.dlfl")) + " -o " + q(path("out.csv")));
  expect_one_line_error(r, path("bad.dlfl").string() + ": coverage: element 1 is covered by test 7 of 2");
  r = run_dlfl("convert " + q(path("bad.dlfl")) + " " + q(path("out")) + " --to gzoltar");
  expect_one_line_error(r, path("bad.dlfl").string() + ": coverage:");
  EXPECT_EQ(listing(dir_.path()), before);
}

TEST_F(Reliability, JsonNumberOutOfRangeIsBadInput) {
  write_text(path("r.json"),
             "{\"formulas\":[{\"formula\":\"ochiai\",\"elements\":[{\"element\":\"a.cpp:1\",\"score\":1e400}]}]}\n");
  write_text(path("truth.txt"), "a.cpp:1\n");
  const RunResult r = run_dlfl("eval " + q(path("r.json")) + " --truth " + q(path("truth.txt")));
  expect_one_line_error(r, path("r.json").string() + ": invalid JSON:");
  EXPECT_THAT(r.err, HasSubstr("number overflow"));

  write_text(path("bench.json"), "{\"subjects\":[{\"subject\":\"s.json\",\"max\":1e400}]}\n");
  const RunResult b = run_dlfl("bench " + q(path("bench.json")) + " -o " + q(path("out")));
  expect_one_line_error(b, path("bench.json").string() + ": not valid JSON:");
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(Reliability, DirectoryGivenAsAFileIsNamedInOneLine) {
  fs::create_directories(path("dir"));
  write_text(path("r.csv"), std::string(kRankingHeader) + "1,1,1,a.cpp:1,a.cpp,1,,code,0.5\n");
  write_text(path("truth.txt"), "a.cpp:1\n");
  const std::string dir = path("dir").string();
  expect_one_line_error(run_dlfl("compare --input " + q(path("dir"))), dir + ": is a directory");
  expect_one_line_error(run_dlfl("eval " + q(path("r.csv")) + " --truth " + q(path("dir"))), dir + ": is a directory");
  expect_one_line_error(run_dlfl("eval --batch " + q(path("dir"))), dir + ": is a directory");
  expect_one_line_error(run_dlfl("eval " + q(path("dir")) + " --truth " + q(path("truth.txt"))), dir + ": is a directory");
  write_text(path("table.csv"), "bug,technique,first_rank\nb1,t,1\n");
  expect_one_line_error(run_dlfl("compare --input " + q(path("table.csv")) + " --labels " + q(path("dir")) + " --by type"),
                        dir + ": is a directory");
}

TEST_F(Reliability, JobsBeyondTheLimitAreRefused) {
  for (const std::string jobs : {"99999999999", "4294967297", "257"}) {
    SCOPED_TRACE(jobs);
    write_text(path("bench.json"), "{\"subjects\":[{\"subject\":\"s.json\"}],\"jobs\":" + jobs + "}\n");
    const RunResult r = run_dlfl("bench " + q(path("bench.json")) + " -o " + q(path("out")));
    expect_one_line_error(r, path("bench.json").string() + ": \"jobs\" is " + jobs + ", more than the limit of 256");
    EXPECT_FALSE(fs::exists(path("out")));
  }
  const RunResult cli = run_dlfl("bench " + q(path("bench.json")) + " -j 100000 -o " + q(path("out")));
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_THAT(cli.err, HasSubstr("--jobs"));
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(Reliability, OverlongFieldIsRefusedWithTheLimit) {
  const std::string name(std::size_t{2} << 20, 'x');
  write_text(path("r.csv"), std::string(kRankingHeader) + "1,1,1," + name + ",a.cpp,1,,code,0.5\n");
  write_text(path("truth.txt"), "a.cpp:1\n");
  const RunResult r = run_dlfl("eval " + q(path("r.csv")) + " --truth " + q(path("truth.txt")));
  expect_one_line_error(r, path("r.csv").string() + ":2: field of 2097152 bytes is longer than the 1 MiB limit");
}

TEST_F(Reliability, ErrorLinesEscapeBinaryBytesAndCarriageReturns) {
  write_text(path("r.csv"), std::string(kRankingHeader) + "1,1,1,a.cpp:1,a.cpp,1,,co\x01\x1b[2Jde\r\xff,0.5\n");
  write_text(path("truth.txt"), "a.cpp:1\n");
  const RunResult r = run_dlfl("eval " + q(path("r.csv")) + " --truth " + q(path("truth.txt")));
  expect_one_line_error(r, path("r.csv").string() + ":2: kind 'co\\x01\\x1b[2Jde\\r\\xff' is neither code nor extrinsic");
}

TEST_F(Reliability, StaleTemporariesOfDeadProcessesAreRemovedByTheNextWrite) {
  // A pid that is surely dead: a child that has exited and been reaped.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);
  const std::string dead = std::to_string(child);
  write_text(path(".out.csv.tmp-" + dead + "-0"), "half a ranking");
  fs::create_directories(path(".txt.tmp-" + dead + "-3"));
  write_text(path(".txt.tmp-" + dead + "-3") / "matrix.txt", "0 1 +\n");
  // A live process's temporary (ours) and unrelated hidden files stay.
  write_text(path(".out.csv.tmp-" + std::to_string(::getpid()) + "-0"), "in use");
  write_text(path(".out.csv.tmp-notapid"), "not ours");

  const std::string example = source_path("examples/spectra/softmax");
  ASSERT_EQ(run_dlfl("rank " + q(example) + " -o " + q(path("out.csv"))).exit_code, 0);
  ASSERT_EQ(run_dlfl("convert " + q(example) + " " + q(path("txt")) + " --to gzoltar").exit_code, 0);
  EXPECT_EQ(listing(dir_.path()), (std::vector<std::string>{".out.csv.tmp-" + std::to_string(::getpid()) + "-0",
                                                            ".out.csv.tmp-notapid", "out.csv", "txt"}));
}

TEST_F(Reliability, SignalsAtAnyMomentOfARankLeaveNoTemporary) {
  // Signals at staggered moments of `rank -o` (before, while and after writing); the
  // deterministic version, a signal with the temporary surely open, is in
  // tests/files/atomic_file_test.cpp.
  const std::string example = source_path("examples/spectra/softmax");
  for (int trial = 0; trial < 20; ++trial) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::execl(DLFL_BINARY, DLFL_BINARY, "rank", example.c_str(), "-f", "ochiai,tarantula,dstar2,barinel", "-o",
              path("out.csv").c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ASSERT_GT(pid, 0);
    ::usleep(static_cast<useconds_t>(trial * 500));
    ::kill(pid, trial % 2 ? SIGTERM : SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    for (const auto& name : listing(dir_.path()))
      EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "trial " << trial << " left " << name;
  }
}

}  // namespace
}  // namespace dlfl::testing
