// `dlfl convert` / `dlfl rank` with lcov tracefiles: spectrum -> lcov -> spectrum is exact
// on the example, and a malformed tracefile is one line with file:line, exit 2, no output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;

const std::string kExample = source_path("examples/spectra/softmax");

TEST(LcovConvert, RoundTripOfTheExampleIsExact) {
  TempDir dir("lcov-cli");
  const auto info = (dir / "softmax.info").string();
  ASSERT_EQ(run_dlfl("convert " + kExample + " " + info).exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(dir / "softmax.tests.csv"));
  ASSERT_EQ(run_dlfl("convert " + info + " " + (dir / "back").string()).exit_code, 0);
  for (const char* file : {"matrix.txt", "spectra.csv"})
    EXPECT_EQ(slurp(dir / "back" / file), slurp(kExample + "/" + file)) << file;
  // Same ranking straight from the tracefile.
  EXPECT_EQ(run_dlfl("rank " + info + " --format csv").out, run_dlfl("rank " + kExample + " --format csv").out);
}

TEST(LcovConvert, MalformedTracefileIsOneLineExitTwoAndNoOutput) {
  TempDir dir("lcov-cli");
  write_text(dir / "bad.tests.csv", "name,outcome,failure_weight\nt,FAIL,1\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"TN:t\nSF:a.cpp\nDA:1,1\n", ":2: the SF record that starts here has no end_of_record (the file ends inside it)"},
      {"TN:t\nDA:1,1\nend_of_record\n", ":2: DA outside an SF record"},
      {"TN:t\nSF:a.cpp\nDA:1,x\nend_of_record\n", ":3: execution count 'x' is not a number"},
  };
  for (const auto& [body, error] : cases) {
    write_text(dir / "bad.info", body);
    const RunResult r = run_dlfl("convert " + (dir / "bad.info").string() + " " + (dir / "out.dlfl").string());
    EXPECT_EQ(r.exit_code, 2) << body;
    EXPECT_EQ(r.err, "dlfl: error: " + (dir / "bad.info").string() + error + "\n");
    EXPECT_FALSE(std::filesystem::exists(dir / "out.dlfl"));
  }
}

}  // namespace
}  // namespace dlfl::testing
