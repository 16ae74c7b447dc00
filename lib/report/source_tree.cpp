// SourceTree: reading a report's source files without leaving the source root.
#include "source_tree.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>

namespace dlfl::io::detail {
namespace {

namespace fs = std::filesystem;

// True when `path` (canonical) is `root` itself or lies below it.
bool inside(const fs::path& path, const fs::path& root) {
  const auto relative = path.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

// Closes a descriptor on every way out.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

SourceTree::SourceTree(const fs::path& root) {
  std::error_code ec;
  root_ = fs::canonical(root.empty() ? fs::path(".") : root, ec);
  if (ec) root_.clear();
}

const std::vector<std::string>* SourceTree::lines(std::string_view file, std::string& why) {
  auto it = cache_.find(file);
  if (it == cache_.end()) it = cache_.emplace(std::string(file), read(file)).first;
  why = it->second.why;
  return why.empty() ? &it->second.lines : nullptr;
}

SourceTree::Entry SourceTree::read(std::string_view file) {
  if (root_.empty()) return {{}, "the source root does not exist"};
  if (file.empty() || file.find('\0') != std::string_view::npos) return {{}, "no file name"};
  const fs::path named(file);
  std::error_code ec;
  const fs::path real = fs::canonical(named.is_absolute() ? named : root_ / named, ec);
  if (ec) return {{}, "not found under the source root"};
  if (!inside(real, root_)) return {{}, "outside the source root (not read)"};

  Descriptor d{::open(real.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)};
  if (d.fd < 0) return {{}, "cannot be read"};
  struct stat st {};
  if (::fstat(d.fd, &st) != 0 || !S_ISREG(st.st_mode)) return {{}, "not a regular file"};
  // What was opened, whatever happened to the path since canonical(): /proc names it.
  const fs::path opened = fs::read_symlink("/proc/self/fd/" + std::to_string(d.fd), ec);
  if (!ec && !inside(opened, root_)) return {{}, "outside the source root (not read)"};
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size > kMaxFile) return {{}, "larger than 4 MiB (not read)"};
  if (size > budget_) return {{}, "past the 64 MiB of sources a report reads (not read)"};

  std::string text;
  std::array<char, 65536> buffer{};
  for (;;) {
    const ssize_t got = ::read(d.fd, buffer.data(), buffer.size());
    if (got < 0) return {{}, "cannot be read"};
    if (got == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(got));
    if (text.size() > kMaxFile) return {{}, "larger than 4 MiB (not read)"};
  }
  budget_ -= std::min(budget_, text.size());
  Entry entry;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    entry.lines.push_back(std::move(line));
    start = end + 1;
  }
  return entry;
}

}  // namespace dlfl::io::detail
