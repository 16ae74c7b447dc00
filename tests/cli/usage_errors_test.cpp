// Usage errors of the argument parser: one line with the `dlfl: error:` prefix, pointing
// to the right --help, exit code 2; unknown commands named; negative counts refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Exit 2, nothing on stdout, exactly one line on stderr, starting with "dlfl: error: ".
void expect_one_line_usage_error(const std::string& args, const std::string& says) {
  const RunResult r = run_dlfl(args);
  EXPECT_EQ(r.exit_code, 2) << args;
  EXPECT_EQ(r.out, "") << args;
  EXPECT_THAT(r.err, StartsWith("dlfl: error: ")) << args;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ":\n" << r.err;
  EXPECT_THAT(r.err, HasSubstr(says)) << args;
}

TEST(UsageErrors, ParserErrorsAreOneLineWithThePrefix) {
  const std::string spectrum = source_path("examples/spectra/softmax");
  expect_one_line_usage_error("rank " + spectrum + " --bogus", "--bogus (see dlfl rank --help)");
  expect_one_line_usage_error("rank " + spectrum + " --format xml", "--format: xml not in");
  expect_one_line_usage_error("instrument -p build", "--out is required (see dlfl instrument --help)");
  expect_one_line_usage_error("collect --gtest", "--gtest");
  expect_one_line_usage_error("", "a command is required (see dlfl --help)");
}

TEST(UsageErrors, UnknownCommandIsNamedWithTheCommands) {
  expect_one_line_usage_error("nosuchcmd", "unknown command 'nosuchcmd'");
  expect_one_line_usage_error("nosuchcmd --help", "the commands are collect, instrument, config, callgraph, rank");
}

TEST(UsageErrors, NegativeCountsAreRefused) {
  const std::string spectrum = source_path("examples/spectra/softmax");
  expect_one_line_usage_error("rank " + spectrum + " --top -1", "--top: -1 is negative");
  expect_one_line_usage_error("rank " + spectrum + " --top=-1", "--top: -1 is negative");
  expect_one_line_usage_error("compare --input x.csv --group a --top 1,-5", "--top: -5 is negative");
  expect_one_line_usage_error("instrument -p build -o out -j -2", "-2 is negative");
  // Zero and positive counts still work.
  EXPECT_EQ(run_dlfl("rank " + spectrum + " --top 0").exit_code, 0);
  EXPECT_EQ(run_dlfl("rank " + spectrum + " --top 3").exit_code, 0);
}

TEST(UsageErrors, HelpAndVersionStillSucceed) {
  EXPECT_EQ(run_dlfl("--help").exit_code, 0);
  EXPECT_EQ(run_dlfl("rank --help").exit_code, 0);
  EXPECT_THAT(run_dlfl("--version").out, HasSubstr("dlfl 0.1.0"));
}

}  // namespace
}  // namespace dlfl::testing
