// ScratchDirectory: PREFIX-PID-XXXXXX, reclaimed by the next run once PID is gone.
#include "scratch_directory.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "dlfl/error.h"

namespace dlfl::collect {
namespace fs = std::filesystem;

ScratchDirectory::ScratchDirectory(const fs::path& parent, std::string_view prefix, bool keep) : keep_(keep) {
  const fs::path base = parent.empty() ? fs::temp_directory_path() : parent;
  std::error_code ec;
  fs::create_directories(base, ec);  // a missing parent is reported by mkdtemp below
  remove_dead_scratch_directories(base, prefix);
  std::string name(prefix);
  name += keep ? "-kept" : "-" + std::to_string(::getpid());
  name += "-XXXXXX";
  std::string pattern = (base / name).string();
  if (!::mkdtemp(pattern.data()))
    throw Error(base.string(), 0, std::string("cannot create the scratch directory: ") + std::strerror(errno));
  path_ = pattern;
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ec;
  if (!keep_) fs::remove_all(path_, ec);
}

void remove_dead_scratch_directories(const fs::path& parent, std::string_view prefix) noexcept {
  try {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.size() <= prefix.size() + 1 || !name.starts_with(prefix) || name[prefix.size()] != '-') continue;
      const std::string_view rest = std::string_view(name).substr(prefix.size() + 1);
      pid_t pid = 0;
      const auto [end, err] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
      if (err != std::errc() || end == rest.data() || pid <= 0 || end == rest.data() + rest.size() || *end != '-')
        continue;
      const std::string_view suffix(end + 1, static_cast<std::size_t>(rest.data() + rest.size() - end - 1));
      if (suffix.empty()) continue;
      bool alnum = true;
      for (const char c : suffix) alnum = alnum && std::isalnum(static_cast<unsigned char>(c));
      if (!alnum) continue;
      // Only ESRCH proves the owner dead: alive, or not ours to signal (EPERM), stays.
      if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
      std::error_code remove_ec;
      if (fs::is_directory(entry.symlink_status(remove_ec))) fs::remove_all(entry.path(), remove_ec);
    }
  } catch (...) {
    // Reclaiming is a courtesy: a failure here must not stop the run.
  }
}

}  // namespace dlfl::collect
