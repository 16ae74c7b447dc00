// SourceTree: the source files a report quotes, read only from inside one root directory.
// Internal to dlfl_report.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::io::detail {

// Reads the files a spectrum names, confined to `root`: a name is taken relative to the
// root (an absolute one as it is), every symbolic link on the way resolved, and the file
// read only when the resolved path lies inside the resolved root, checked again on the
// opened file (so a link swapped in between cannot lead out). A report meant to be
// shared must never carry a file it was not asked to show (`../../etc/passwd`, a link to
// ~/.ssh). Files larger than kMaxFile and reads past kBudget in all are refused too.
class SourceTree {
 public:
  static constexpr std::size_t kMaxFile = std::size_t{4} << 20;
  static constexpr std::size_t kBudget = std::size_t{64} << 20;

  // `root` empty: the current directory. A root that does not exist reads nothing.
  explicit SourceTree(const std::filesystem::path& root);

  // The lines of `file` ('\n' or "\r\n" ends, without them), or nullptr with `why` set to
  // a short reason ("not found under the source root", "outside the source root", ...).
  // Cached: each file is read once.
  const std::vector<std::string>* lines(std::string_view file, std::string& why);

 private:
  struct Entry {
    std::vector<std::string> lines;
    std::string why;  // empty when read
  };
  Entry read(std::string_view file);

  std::filesystem::path root_;  // canonical; empty when the root does not exist
  std::size_t budget_ = kBudget;
  std::map<std::string, Entry, std::less<>> cache_;
};

}  // namespace dlfl::io::detail
