// `dlfl --version`: the version and the commit the binary was built from; the build step
// that records the commit, with and without a git checkout.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "../support/shell_output.h"
#include "cli_runner.h"

namespace dlfl::testing {
namespace {

// The header cmake/BuildCommit.cmake writes for the source tree `source`.
std::string recorded_commit(const std::filesystem::path& source, const TempDir& dir) {
  const auto header = dir / "commit.h";
  const ShellRun r = capture_shell("cmake -DSOURCE_DIR='" + source.string() + "' -DOUT='" + header.string() +
                                   "' -P '" + source_path("cmake/BuildCommit.cmake") + "' 2>&1");
  EXPECT_EQ(r.status, 0) << r.out;
  return slurp(header);
}

TEST(Version, NamesTheVersionAndTheCommit) {
  const RunResult r = run_dlfl("--version");
  EXPECT_EQ(r.exit_code, 0);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.out, m, std::regex(R"(dlfl 0\.1\.0 \(commit ([^ )]+)\)\n)"))) << r.out;
  if (!std::filesystem::exists(source_path(".git")) || shell_output("command -v git").empty())
    GTEST_SKIP() << "not built from a git checkout: the commit is 'unknown'";
  // The build records `git describe`: it holds the abbreviated hash of the commit built.
  const std::string head = shell_output("git -C '" + source_path("") + "' rev-parse --short=12 HEAD");
  ASSERT_GE(head.size(), 12u);
  EXPECT_THAT(m[1].str(), ::testing::HasSubstr(head.substr(0, 12)));
}

TEST(Version, ATarballFromGitArchiveNamesItsCommit) {
  // `git archive` fills in cmake/commit.txt (export-subst); there is no .git.
  TempDir tree("version-tarball"), out("version-out");
  write_text(tree / "cmake/commit.txt", "0123456789abcdef0123456789abcdef01234567\n");
  EXPECT_THAT(recorded_commit(tree.path(), out), ::testing::HasSubstr("#define DLFL_BUILD_COMMIT \"0123456789ab\""));
}

TEST(Version, ACopyWithoutGitSaysUnknown) {
  // A plain copy of the tree: the placeholder is not expanded.
  TempDir tree("version-copy"), out("version-out");
  write_text(tree / "cmake/commit.txt", "$Format:%H$\n");
  EXPECT_THAT(recorded_commit(tree.path(), out), ::testing::HasSubstr("#define DLFL_BUILD_COMMIT \"unknown\""));
}

}  // namespace
}  // namespace dlfl::testing
