// PREFIX PID-SUFFIX names and whether what they hold was abandoned (lib/files/dead_owner.h).
#include "dead_owner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <string>

#include "dlfl/files/tree_removal.h"

namespace dlfl::io::detail {
namespace {

// The PID of a name that named_with_owner accepts; 0 otherwise.
pid_t owner_of(std::string_view name, std::string_view prefix, std::string_view suffix_chars) noexcept {
  if (!name.starts_with(prefix)) return 0;
  const std::string_view rest = name.substr(prefix.size());
  pid_t pid = 0;
  const char* const last = rest.data() + rest.size();
  const auto [end, err] = std::from_chars(rest.data(), last, pid);
  if (err != std::errc() || end == rest.data() || pid <= 0 || end == last || *end != '-') return 0;
  const std::string_view suffix(end + 1, static_cast<std::size_t>(last - end - 1));
  if (suffix.empty() || suffix.find_first_not_of(suffix_chars) != std::string_view::npos) return 0;
  return pid;
}

// A descriptor that closes itself.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

bool ours(const struct stat& st) noexcept { return st.st_uid == ::geteuid(); }

}  // namespace

bool named_with_owner(std::string_view name, std::string_view prefix, std::string_view suffix_chars) noexcept {
  return owner_of(name, prefix, suffix_chars) != 0;
}

bool owned_by_dead_process(std::string_view name, std::string_view prefix, std::string_view suffix_chars) noexcept {
  const pid_t pid = owner_of(name, prefix, suffix_chars);
  return pid != 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH;
}

void remove_owned_by_dead_processes(const std::filesystem::path& dir, std::string_view prefix,
                                    std::string_view suffix_chars, bool directories_only) noexcept {
  try {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (!owned_by_dead_process(name, prefix, suffix_chars)) continue;
      struct stat st;
      if (::lstat(entry.path().c_str(), &st) != 0 || !ours(st)) continue;
      if (S_ISDIR(st.st_mode)) remove_tree_quietly(entry.path());
      else if (!directories_only) ::unlink(entry.path().c_str());
    }
  } catch (...) {
    // Reclaiming is a courtesy: a failure here must not stop the run or the write.
  }
}

void remove_abandoned_locked_directories(const std::filesystem::path& dir, std::string_view prefix,
                                         std::string_view suffix_chars, std::string_view lock_name) noexcept {
  try {
    std::error_code ec;
    const std::string lock(lock_name);
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (!named_with_owner(entry.path().filename().string(), prefix, suffix_chars)) continue;
      const Descriptor directory{::open(entry.path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
      struct stat st;
      if (directory.fd < 0 || ::fstat(directory.fd, &st) != 0 || !ours(st)) continue;
      const Descriptor held{::openat(directory.fd, lock.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
      if (held.fd < 0 || ::fstat(held.fd, &st) != 0 || !S_ISREG(st.st_mode) || !ours(st)) continue;
      if (::flock(held.fd, LOCK_EX | LOCK_NB) != 0) continue;  // its owner lives
      remove_tree_quietly(entry.path());
    }
  } catch (...) {
    // Reclaiming is a courtesy: a failure here must not stop the run.
  }
}

}  // namespace dlfl::io::detail
