// The scratch directory of one run (collection's per-test coverage files, snapshots and
// reports), holding a lock for its owner's life so that a later run can reclaim it when
// that owner died without removing it (SIGKILL, a crash, a power cut). A process id is
// not proof of death: containers and CI runners share /tmp across PID namespaces, where
// another namespace's live process cannot be seen; a lock the kernel drops at death is.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace dlfl::io {

// The lock file inside each scratch directory, flock()ed by its owner for its whole life.
inline constexpr std::string_view kScratchLockName = ".dlfl-lock";

// Creates PARENT/PREFIX-PID-XXXXXX (mkdtemp, mode 0700; PARENT defaults to the system
// temp directory and is created when missing) with its lock file held. On destruction
// removes the directory and everything in it (without following links, tree_removal.h),
// unless `keep`: a kept directory is named PREFIX-kept-XXXXXX instead, so that no later
// run takes it for debris. A run that ends without an exception in flight then reclaims
// the abandoned siblings (reclaim_abandoned_scratch_directories): a run that stops on an
// error, a usage error included, removes nothing but its own. Throws
// dlfl::Error(PARENT, 0, "...") when it cannot be created. Not copyable.
class ScratchDirectory {
 public:
  ScratchDirectory(const std::filesystem::path& parent, std::string_view prefix, bool keep);
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory();

  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
  std::string prefix_;
  bool keep_;
  int lock_fd_ = -1;
};

// Removes the directories PARENT/PREFIX-PID-SUFFIX (SUFFIX letters and digits) that are
// abandoned: owned by this process's effective uid, holding a regular lock file of that
// uid whose flock can be taken at once (its owner is gone, whatever PID namespace it ran
// in). Others' directories, live ones, directories without a lock file (not made by this
// rule), links, kept ones and anything named otherwise stay. Never throws; what cannot be
// removed stays.
void reclaim_abandoned_scratch_directories(const std::filesystem::path& parent, std::string_view prefix) noexcept;

}  // namespace dlfl::io
