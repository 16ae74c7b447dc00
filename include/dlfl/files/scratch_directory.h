// The scratch directory of one run (collection's per-test coverage files, snapshots and
// reports), named after the process that owns it so that the next run can reclaim it when
// that process died without removing it (SIGKILL, a crash, a power cut). The same rule
// reclaims the temporaries of atomic outputs (atomic_file.h).
#pragma once

#include <filesystem>
#include <string_view>

namespace dlfl::io {

// Creates PARENT/PREFIX-PID-XXXXXX (mkdtemp; PARENT defaults to the system temp
// directory and is created when missing), after removing the PARENT/PREFIX-PID-* of
// processes that are gone. Removes the directory and everything in it on destruction,
// unless `keep`: a kept directory is named PREFIX-kept-XXXXXX instead, so that no later
// run takes it for debris. Throws dlfl::Error(PARENT, 0, "...") when it cannot be
// created. Not copyable.
class ScratchDirectory {
 public:
  ScratchDirectory(const std::filesystem::path& parent, std::string_view prefix, bool keep);
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory();

  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
  bool keep_;
};

// Removes the directories PARENT/PREFIX-PID-SUFFIX (SUFFIX letters and digits) whose
// process PID no longer exists (kill(PID, 0) fails with ESRCH). Those of live processes,
// kept ones and anything named otherwise stay. Never throws; what cannot be removed stays.
void remove_dead_scratch_directories(const std::filesystem::path& parent, std::string_view prefix) noexcept;

}  // namespace dlfl::io
