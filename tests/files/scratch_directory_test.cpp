// Tests for ScratchDirectory: a run's scratch directory holds a lock for its owner's life,
// and a later run that ends well removes those whose lock is free and that are its user's
// (a `dlfl collect` killed with SIGKILL), never another's, a live one or a link.
#include "dlfl/files/scratch_directory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

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

// A directory as an earlier run would have left it: PARENT/NAME with a lock file.
fs::path abandoned(const fs::path& parent, const std::string& name) {
  const fs::path dir = parent / name;
  testing::write_text(dir / "t0" / "x.gcda", "coverage");
  testing::write_text(dir / std::string(kScratchLockName), "");
  return dir;
}

// A process that holds DIR's lock until its pipe closes, as a live run in another PID
// namespace would: its PID in the name can be any, here one that is dead in ours.
struct LockHolder {
  pid_t pid = -1;
  int release = -1;
  explicit LockHolder(const fs::path& dir) {
    int ready[2], hold[2];
    if (::pipe(ready) != 0 || ::pipe(hold) != 0) return;
    pid = ::fork();
    if (pid == 0) {
      ::close(hold[1]);  // or the pipe never ends for the read below
      ::close(ready[0]);
      const int fd = ::open((dir / std::string(kScratchLockName)).c_str(), O_RDONLY);
      if (fd < 0 || ::flock(fd, LOCK_EX) != 0) ::_exit(1);
      char c = 'x';
      (void)!::write(ready[1], &c, 1);
      (void)!::read(hold[0], &c, 1);  // until the parent closes its end
      ::_exit(0);
    }
    ::close(ready[1]);
    ::close(hold[0]);
    char c;
    (void)!::read(ready[0], &c, 1);
    ::close(ready[0]);
    release = hold[1];
  }
  ~LockHolder() {
    ::close(release);
    ::waitpid(pid, nullptr, 0);
  }
};

TEST(ScratchDirectory, AbandonedDirectoriesAreReclaimedLiveOnesOthersAndUnlockedOnesStay) {
  testing::TempDir dir("scratch-test");
  const fs::path parent = dir.path();
  const std::string dead = dead_pid();
  abandoned(parent, "dlfl-collect-" + dead + "-a1B2c3");
  const fs::path live = abandoned(parent, "dlfl-collect-" + dead + "-Zz9Zz9");
  const LockHolder holder(live);
  ASSERT_GT(holder.pid, 0);
  fs::create_directories(parent / ("dlfl-collect-" + dead + "-n0Lock"));  // no lock file: not ours to judge
  fs::create_directories(parent / "dlfl-collect-kept-q1w2e3");
  abandoned(parent, "dlfl-collect-" + dead);              // not the pattern
  abandoned(parent, "dlfl-runtime-" + dead + "-x0x0x0");  // another prefix
  testing::write_text(parent / ("dlfl-collect-" + dead + "-file00"), "a file, not a directory");
  // A link named like one leads to a directory that must survive.
  const fs::path target = abandoned(parent, "target");
  fs::create_directory_symlink(target, parent / ("dlfl-collect-" + dead + "-L1nk00"));
  {
    const ScratchDirectory scratch(parent, "dlfl-collect", false);
    EXPECT_EQ(scratch.path().parent_path(), parent);
    EXPECT_THAT(scratch.path().filename().string(),
                MatchesRegex("dlfl-collect-" + std::to_string(::getpid()) + "-[A-Za-z0-9]{6}"));
    EXPECT_TRUE(fs::is_regular_file(scratch.path() / std::string(kScratchLockName)));
    EXPECT_EQ(listing(parent).size(), 10u);  // nothing is reclaimed before the run ends
  }
  Names expected = {"dlfl-collect-" + dead,
                    "dlfl-collect-" + dead + "-L1nk00",
                    "dlfl-collect-" + dead + "-Zz9Zz9",
                    "dlfl-collect-" + dead + "-file00",
                    "dlfl-collect-" + dead + "-n0Lock",
                    "dlfl-collect-kept-q1w2e3",
                    "dlfl-runtime-" + dead + "-x0x0x0",
                    "target"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(listing(parent), expected);
  EXPECT_TRUE(fs::exists(target / "t0" / "x.gcda"));
  EXPECT_TRUE(fs::exists(live / "t0" / "x.gcda"));
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

TEST(ScratchDirectory, ARunThatEndsInAnErrorReclaimsNothing) {
  testing::TempDir dir("scratch-test");
  const fs::path left = abandoned(dir.path(), "dlfl-collect-" + dead_pid() + "-a1B2c3");
  try {
    const ScratchDirectory scratch(dir.path(), "dlfl-collect", false);
    throw std::runtime_error("the run stops");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(fs::exists(left / "t0" / "x.gcda"));
}

TEST(ScratchDirectory, AnotherUsersDirectoryIsNeverReclaimed) {
  if (::geteuid() != 0) GTEST_SKIP() << "giving a directory to another user needs root";
  testing::TempDir dir("scratch-test");
  const fs::path other = abandoned(dir.path(), "dlfl-collect-" + dead_pid() + "-a1B2c3");
  for (const fs::path& p : {other, other / std::string(kScratchLockName), other / "t0", other / "t0" / "x.gcda"})
    ASSERT_EQ(::chown(p.c_str(), 65534, 65534), 0) << p;
  reclaim_abandoned_scratch_directories(dir.path(), "dlfl-collect");
  EXPECT_TRUE(fs::exists(other / "t0" / "x.gcda"));
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
