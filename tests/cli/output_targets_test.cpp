// `-o` naming what is not a regular file: /dev/null, a symlink to it. dlfl writes into it
// and leaves it what it was (a rename would replace the device by a regular file; CI
// runs as root, which may rename over /dev/null).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdio>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

TEST(OutputTargets, DevNullAndSymlinksToItStayWhatTheyAre) {
  TempDir dir{"output-targets"};
  const std::string example = q(source_path("examples/spectra/softmax"));
  fs::create_symlink("/dev/null", dir.path() / "sink");
  RunResult r = run_dlfl("rank " + example + " -o " + q(dir.path() / "sink"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::is_symlink(dir.path() / "sink")) << "replaced: /dev/null itself is not tried";
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1) << "no temporary";

  for (const std::string& command : {"rank " + example + " --format csv -o /dev/null",
                                    "rank " + example + " --format json -o /dev/null",
                                    "convert " + example + " /dev/null --to native"}) {
    r = run_dlfl(command);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (!fs::is_character_file("/dev/null")) {
      // Put the machine right before failing: every process on it writes there.
      ::mknod("/dev/.null-restored", S_IFCHR | 0666, ::makedev(1, 3));
      ::rename("/dev/.null-restored", "/dev/null");
      ADD_FAILURE() << command << " replaced /dev/null by a regular file";
    }
  }
}

}  // namespace
}  // namespace dlfl::testing

namespace dlfl::testing {
namespace {

// A rewritten output keeps the mode its owner gave it: a private report stays private.
TEST(OutputTargets, RewritingAnOutputKeepsItsMode) {
  TempDir dir{"output-mode"};
  const fs::path out = dir.path() / "r.csv";
  write_text(out, "old\n");
  fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write);
  const RunResult r = run_dlfl("rank '" + source_path("examples/spectra/softmax") + "' --format csv -o '" +
                               out.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(out), "old\n");
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
}

// `-o out.mtx` with no directory part: the companions' previous versions, kept while the
// set is replaced, are gone once it is, however often it is rewritten.
TEST(OutputTargets, AMatrixMarketSetInTheWorkingDirectoryLeavesNoPreviousLinks) {
  TempDir dir{"output-prev"};
  const std::string example = source_path("examples/spectra/softmax");
  for (int round = 0; round < 3; ++round) {
    const RunResult r = run_command("cd '" + dir.path().string() + "' && " + std::string(DLFL_BINARY) + " convert '" +
                                    example + "' out.mtx --to matrix-market");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"out.elements.csv", "out.mtx", "out.tests.csv"}));
}

}  // namespace
}  // namespace dlfl::testing
