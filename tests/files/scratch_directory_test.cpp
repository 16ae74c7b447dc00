// Tests for ScratchDirectory: a run's scratch directory names its owner's pid, and the
// next run removes those of owners that are gone (a `dlfl collect` killed with SIGKILL).
#include "dlfl/files/scratch_directory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "../../lib/files/dead_owner.h"
#include "../support/test_files.h"

namespace dlfl::io {
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

TEST(DeadOwner, OnlyAWholePrefixPidSuffixNameOfAGoneProcessCounts) {
  using detail::owned_by_dead_process;
  const std::string dead = dead_pid(), alive = std::to_string(::getppid()), self = std::to_string(::getpid());
  EXPECT_TRUE(owned_by_dead_process("run-" + dead + "-aB3", "run-", "aB3"));
  EXPECT_TRUE(owned_by_dead_process(".x.tmp-" + dead + "-12", ".x.tmp-", "0123456789"));
  EXPECT_FALSE(owned_by_dead_process(".x.tmp-" + dead + "-1a", ".x.tmp-", "0123456789"));  // a suffix of others
  EXPECT_FALSE(owned_by_dead_process("run-" + dead + "-", "run-", "a"));                     // no suffix
  EXPECT_FALSE(owned_by_dead_process("run-" + dead, "run-", "a"));                           // no '-'
  EXPECT_FALSE(owned_by_dead_process("run--" + dead + "-a", "run-", "a"));                   // no pid
  EXPECT_FALSE(owned_by_dead_process("walk-" + dead + "-a", "run-", "a"));                   // another prefix
  EXPECT_FALSE(owned_by_dead_process("run-0-a", "run-", "a"));
  EXPECT_FALSE(owned_by_dead_process("run-" + alive + "-a", "run-", "a"));  // alive
  EXPECT_FALSE(owned_by_dead_process("run-" + self + "-a", "run-", "a"));   // this process
  EXPECT_FALSE(owned_by_dead_process("run-99999999999999999999-a", "run-", "a"));  // no pid_t
}

}  // namespace
}  // namespace dlfl::io
