// ScratchDirectory: PREFIX-PID-XXXXXX with a held lock, reclaimed once the lock is free.
#include "dlfl/files/scratch_directory.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <string>

#include "dead_owner.h"
#include "dlfl/error.h"
#include "dlfl/files/tree_removal.h"

namespace dlfl::io {
namespace fs = std::filesystem;

ScratchDirectory::ScratchDirectory(const fs::path& parent, std::string_view prefix, bool keep)
    : prefix_(prefix), keep_(keep) {
  const fs::path base = parent.empty() ? fs::temp_directory_path() : parent;
  std::error_code ec;
  fs::create_directories(base, ec);  // a missing parent is reported by mkdtemp below
  std::string name(prefix);
  name += keep ? "-kept" : "-" + std::to_string(::getpid());
  name += "-XXXXXX";
  std::string pattern = (base / name).string();
  if (!::mkdtemp(pattern.data()))
    throw Error(base.string(), 0, std::string("cannot create the scratch directory: ") + std::strerror(errno));
  path_ = pattern;
  if (keep) return;  // never reclaimed: no lock needed
  // Locked before it gets its name: a reclaimer never sees the lock file unlocked while
  // this run lives.
  const fs::path pending = path_ / (std::string(kScratchLockName) + ".new"), lock = path_ / kScratchLockName;
  lock_fd_ = ::open(pending.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX) != 0 || ::rename(pending.c_str(), lock.c_str()) != 0) {
    const int err = errno;
    if (lock_fd_ >= 0) ::close(lock_fd_);
    remove_tree_quietly(path_);
    throw Error(path_.string(), 0, std::string("cannot lock the scratch directory: ") + std::strerror(err));
  }
}

ScratchDirectory::~ScratchDirectory() {
  if (!keep_) remove_tree_quietly(path_);
  if (lock_fd_ >= 0) ::close(lock_fd_);
  if (std::uncaught_exceptions() == 0) reclaim_abandoned_scratch_directories(path_.parent_path(), prefix_);
}

void reclaim_abandoned_scratch_directories(const fs::path& parent, std::string_view prefix) noexcept {
  constexpr std::string_view kLettersAndDigits =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  try {
    detail::remove_abandoned_locked_directories(parent, std::string(prefix) + "-", kLettersAndDigits,
                                                kScratchLockName);
  } catch (...) {
    // std::string's allocation; reclaiming is a courtesy.
  }
}

}  // namespace dlfl::io
