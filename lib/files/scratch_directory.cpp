// ScratchDirectory: PREFIX-PID-XXXXXX, reclaimed by the next run once PID is gone.
#include "dlfl/files/scratch_directory.h"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "dead_owner.h"
#include "dlfl/error.h"

namespace dlfl::io {
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
  constexpr std::string_view kLettersAndDigits =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  try {
    detail::remove_owned_by_dead_processes(parent, std::string(prefix) + "-", kLettersAndDigits, true);
  } catch (...) {
    // std::string's allocation; reclaiming is a courtesy.
  }
}

}  // namespace dlfl::io
