// `dlfl formulas`, `dlfl convert`, and the top-level usage behaviour.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;

TEST(FormulasCommand, ListsEveryFormulaOnePerLine) {
  const RunResult r = run_dlfl("formulas");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = std::count(r.out.begin(), r.out.end(), '\n');
  EXPECT_GE(lines, 30);
  EXPECT_THAT(r.out, HasSubstr("ochiai"));
  EXPECT_THAT(r.out, HasSubstr("ef / sqrt((ef+nf)*(ef+ep))"));
  EXPECT_THAT(run_dlfl("formulas --verbose").out, HasSubstr("Wong et al."));
}

TEST(ConvertCommand, RoundTripsThroughEveryFormat) {
  TempDir dir;
  const std::string example = source_path("examples/spectra/softmax");
  ASSERT_EQ(run_dlfl("convert " + example + " " + (dir / "a.dlfl").string()).exit_code, 0);
  ASSERT_EQ(run_dlfl("convert " + (dir / "a.dlfl").string() + " " + (dir / "legacy").string() + " --to legacy").exit_code, 0);
  ASSERT_EQ(run_dlfl("convert " + (dir / "legacy").string() + " " + (dir / "b.dlfl").string()).exit_code, 0);
  ASSERT_EQ(run_dlfl("convert " + (dir / "a.dlfl").string() + " " + (dir / "txt").string()).exit_code, 0);
  EXPECT_EQ(slurp(dir / "txt" / "matrix.txt"), slurp(example + "/matrix.txt"));
  EXPECT_EQ(slurp(dir / "txt" / "spectra.csv"), slurp(example + "/spectra.csv"));
  EXPECT_EQ(slurp(dir / "legacy" / "matrix"), slurp(example + "/matrix.txt"));
  // The legacy pair has no test names, but rankings do not depend on them.
  EXPECT_EQ(run_dlfl("rank --format csv " + (dir / "b.dlfl").string()).out,
            run_dlfl("rank --format csv " + example).out);
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run_dlfl("").exit_code, 2);
  EXPECT_EQ(run_dlfl("rank").exit_code, 2);
  EXPECT_EQ(run_dlfl("rank x --ties sometimes").exit_code, 2);
  EXPECT_EQ(run_dlfl("frobnicate").exit_code, 2);
}

TEST(Cli, HelpExplainsEachCommandWithAnExample) {
  for (const char* cmd : {"rank", "convert", "formulas"}) {
    const RunResult r = run_dlfl(std::string(cmd) + " --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr(cmd));
  }
  EXPECT_THAT(run_dlfl("rank --help").out, HasSubstr("Example: dlfl rank"));
}

}  // namespace
}  // namespace dlfl::testing
