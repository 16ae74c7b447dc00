// `-o` naming what is not a regular file: /dev/null, a symlink to it. dlfl writes into it
// and leaves it what it was (a rename would replace the device by a regular file; CI
// runs as root, which may rename over /dev/null).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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
