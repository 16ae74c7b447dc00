// PREFIX PID-SUFFIX names and whether PID is gone (lib/files/dead_owner.h).
#include "dead_owner.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <string>

namespace dlfl::io::detail {

bool owned_by_dead_process(std::string_view name, std::string_view prefix, std::string_view suffix_chars) noexcept {
  if (!name.starts_with(prefix)) return false;
  const std::string_view rest = name.substr(prefix.size());
  pid_t pid = 0;
  const char* const last = rest.data() + rest.size();
  const auto [end, err] = std::from_chars(rest.data(), last, pid);
  if (err != std::errc() || end == rest.data() || pid <= 0 || end == last || *end != '-') return false;
  const std::string_view suffix(end + 1, static_cast<std::size_t>(last - end - 1));
  if (suffix.empty() || suffix.find_first_not_of(suffix_chars) != std::string_view::npos) return false;
  return pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH;
}

void remove_owned_by_dead_processes(const std::filesystem::path& dir, std::string_view prefix,
                                    std::string_view suffix_chars, bool directories_only) noexcept {
  try {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (!owned_by_dead_process(name, prefix, suffix_chars)) continue;
      std::error_code remove_ec;
      if (directories_only && !std::filesystem::is_directory(entry.symlink_status(remove_ec))) continue;
      std::filesystem::remove_all(entry.path(), remove_ec);
    }
  } catch (...) {
    // Reclaiming is a courtesy: a failure here must not stop the run or the write.
  }
}

}  // namespace dlfl::io::detail
