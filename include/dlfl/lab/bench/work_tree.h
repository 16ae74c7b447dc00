// Work trees: each `dlfl bench` worker builds faults in its own copy of the subject (the
// instrumented tree for the runtime backend), seeding one fault at a time and restoring
// the file afterwards, so its build directory stays warm and every fault is one
// incremental build.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::bench {

struct WorkTree {
  std::filesystem::path source;  // the copy that is built ({source})
  std::filesystem::path build;   // its build directory ({build})
};

// Makes `to` hold every regular file of `from` with the same content and permissions.
// Files whose content already matches are not touched (their timestamps neither), so a
// build directory of `to` rebuilds only what changed, e.g. a file a killed run left
// mutated. Files only in `to` are left alone. `.git` and in-source build directories
// (holding a CMakeCache.txt) are not copied. Throws dlfl::Error when a file cannot be
// read or written.
void sync_tree(const std::filesystem::path& from, const std::filesystem::path& to);

// The regular files of a source tree as sync_tree copies them (no `.git`, no in-source
// build directory), relative to `root`, sorted. Throws dlfl::Error when it cannot be read.
std::vector<std::filesystem::path> tree_files(const std::filesystem::path& root);

// `root / relative`, once `relative` is proven to name a place inside `root`: relative and
// normalised (eval::repository_path_problem), and its directory inside `root` also after
// symbolic links are followed (a repository may hold a link to anywhere). The last
// component itself may be a link: removing it removes the link. Throws dlfl::Error
// "WHAT: ..." otherwise; `what` names the field, e.g. "bug x#1: deleted test file".
std::filesystem::path path_inside(const std::filesystem::path& root, std::string_view relative,
                                  const std::string& what);

// The whole file; throws dlfl::Error naming it when it cannot be read.
std::string read_text(const std::filesystem::path& path);
// Replaces the file's content (through a temporary sibling and rename, so a kill never
// leaves it half written). Throws dlfl::Error when it cannot be written.
void write_text(const std::filesystem::path& path, const std::string& text);

// Writes `text` over `path` and puts the previous content back on destruction (also when
// an exception unwinds). Not copyable.
class SeededFile {
 public:
  SeededFile(std::filesystem::path path, const std::string& text);
  ~SeededFile();
  SeededFile(const SeededFile&) = delete;
  SeededFile& operator=(const SeededFile&) = delete;
  // Restores now; throws dlfl::Error when the file cannot be written.
  void restore();

 private:
  std::filesystem::path path_;
  std::string previous_;
  bool restored_ = false;
};

}  // namespace dlfl::bench
