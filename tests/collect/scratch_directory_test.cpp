// Tests for ScratchDirectory: a run's scratch directory names its owner's pid, and the
// next run removes those of owners that are gone (a `dlfl collect` killed with SIGKILL).
#include "scratch_directory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "../support/test_files.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using ::testing::MatchesRegex;
using Names = std::vector<std::string>;

Names listing(const fs::path& dir) {
  Names names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A pid that is surely dead: a child that has exited and been reaped.
std::string dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return std::to_string(child);
}

TEST(ScratchDirectory, DeadOwnersDirectoriesAreRemovedLiveAndKeptOnesStay) {
  testing::TempDir dir("scratch-test");
  const fs::path parent = dir.path();
  const std::string dead = dead_pid(), alive = std::to_string(::getppid());
  fs::create_directories(parent / ("dlfl-collect-" + dead + "-a1B2c3") / "t0");
  testing::write_text(parent / ("dlfl-collect-" + dead + "-a1B2c3") / "t0" / "x.gcda", "coverage");
  fs::create_directories(parent / ("dlfl-collect-" + alive + "-Zz9Zz9"));
  fs::create_directories(parent / "dlfl-collect-kept-q1w2e3");
  fs::create_directories(parent / ("dlfl-collect-" + dead));             // not the pattern
  fs::create_directories(parent / ("dlfl-runtime-" + dead + "-x0x0x0"));  // another prefix
  testing::write_text(parent / ("dlfl-collect-" + dead + "-file00"), "a file, not a directory");
  {
    const ScratchDirectory scratch(parent, "dlfl-collect", false);
    EXPECT_EQ(scratch.path().parent_path(), parent);
    EXPECT_THAT(scratch.path().filename().string(),
                MatchesRegex("dlfl-collect-" + std::to_string(::getpid()) + "-[A-Za-z0-9]{6}"));
    EXPECT_TRUE(fs::is_directory(scratch.path()));
    EXPECT_EQ(listing(parent).size(), 6u);
  }
  Names expected = {"dlfl-collect-" + dead, "dlfl-collect-" + dead + "-file00", "dlfl-collect-" + alive + "-Zz9Zz9",
                    "dlfl-collect-kept-q1w2e3", "dlfl-runtime-" + dead + "-x0x0x0"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(listing(parent), expected);
  // A kept directory is named so that no later run takes it for debris.
  fs::path kept;
  {
    const ScratchDirectory scratch(parent, "dlfl-runtime", true);
    kept = scratch.path();
    EXPECT_THAT(kept.filename().string(), MatchesRegex("dlfl-runtime-kept-[A-Za-z0-9]{6}"));
  }
  EXPECT_TRUE(fs::is_directory(kept));
  EXPECT_FALSE(fs::exists(parent / ("dlfl-runtime-" + dead + "-x0x0x0")));
}

}  // namespace
}  // namespace dlfl::collect
