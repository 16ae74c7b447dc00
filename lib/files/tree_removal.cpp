// Link-safe removal of directory trees (include/dlfl/files/tree_removal.h).
#include "dlfl/files/tree_removal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace dlfl::io {
namespace {

// Far deeper than any build or git tree; bounds the descriptors one removal holds.
constexpr int kMaxDepth = 512;

struct Removal {
  std::error_code error;
  void fail(int err) noexcept {
    if (!error) error.assign(err, std::generic_category());
  }
};

// Removes everything inside the open directory `fd` (which it closes).
void remove_contents(int fd, int depth, Removal& r) noexcept {
  DIR* dir = ::fdopendir(fd);
  if (!dir) {
    r.fail(errno);
    ::close(fd);
    return;
  }
  // Names are removed while the directory is read; POSIX leaves it open whether readdir
  // then still returns the rest, so read again until a pass removes nothing.
  for (bool removed_some = true; removed_some;) {
    removed_some = false;
    ::rewinddir(dir);
    while (const dirent* entry = ::readdir(dir)) {
      const char* name = entry->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
      if (entry->d_type != DT_DIR && ::unlinkat(fd, name, 0) == 0) {
        removed_some = true;
        continue;
      }
      // A directory, or unknown: open it without following a link, empty it, remove it.
      const int child = ::openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child < 0) {
        // Replaced by a link or a file since it was listed: unlink that instead.
        if ((errno == ELOOP || errno == ENOTDIR) && ::unlinkat(fd, name, 0) == 0) removed_some = true;
        else if (errno != ENOENT) r.fail(errno);
        continue;
      }
      if (depth + 1 >= kMaxDepth) {
        ::close(child);
        r.fail(ENAMETOOLONG);
        continue;
      }
      remove_contents(child, depth + 1, r);
      if (::unlinkat(fd, name, AT_REMOVEDIR) == 0) removed_some = true;
      else if (errno != ENOENT) r.fail(errno);
    }
    if (r.error) break;  // what failed would fail again
  }
  ::closedir(dir);
}

}  // namespace

TreeRemoval remove_tree(const std::filesystem::path& dir, std::error_code& error) noexcept {
  error.clear();
  try {
    const std::filesystem::path parent = dir.has_parent_path() ? dir.parent_path() : std::filesystem::path(".");
    const std::string name = dir.filename().string();
    if (name.empty() || name == "." || name == "..") {
      error.assign(EINVAL, std::generic_category());
      return TreeRemoval::failed;
    }
    const int parent_fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parent_fd < 0) {
      if (errno == ENOENT) return TreeRemoval::absent;
      error.assign(errno, std::generic_category());
      return TreeRemoval::failed;
    }
    const int fd = ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      ::close(parent_fd);
      if (err == ENOENT) return TreeRemoval::absent;
      if (err == ELOOP || err == ENOTDIR) return TreeRemoval::link;
      error.assign(err, std::generic_category());
      return TreeRemoval::failed;
    }
    Removal r;
    remove_contents(fd, 0, r);
    if (::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) r.fail(errno);
    ::close(parent_fd);
    error = r.error;
    return error ? TreeRemoval::failed : TreeRemoval::removed;
  } catch (...) {  // std::string's allocation
    error.assign(ENOMEM, std::generic_category());
    return TreeRemoval::failed;
  }
}

}  // namespace dlfl::io
