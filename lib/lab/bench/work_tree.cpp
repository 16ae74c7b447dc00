// Worker copies of a subject and seeding one file (include/dlfl/lab/bench/work_tree.h).
#include "dlfl/lab/bench/work_tree.h"

#include <algorithm>

#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_names.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/text_file.h"

namespace dlfl::bench {

std::string read_text(const std::filesystem::path& path) { return io::read_file_bytes(path); }

std::filesystem::path path_inside(const std::filesystem::path& root, std::string_view relative, const std::string& what) {
  namespace fs = std::filesystem;
  if (const std::string problem = eval::repository_path_problem(relative); !problem.empty())
    throw Error(what + " \"" + std::string(relative.substr(0, 80)) + "\" " + problem);
  const fs::path path = root / fs::path(relative);
  std::error_code ec;
  const fs::path real_root = fs::weakly_canonical(root, ec);
  const fs::path real_dir = ec ? fs::path() : fs::weakly_canonical(path.parent_path(), ec);
  if (ec)
    throw Error(what + " \"" + std::string(relative.substr(0, 80)) + "\" cannot be resolved in " + root.string() +
                ": " + ec.message());
  const auto [r, d] = std::mismatch(real_root.begin(), real_root.end(), real_dir.begin(), real_dir.end());
  if (r != real_root.end())
    throw Error(what + " \"" + std::string(relative.substr(0, 80)) + "\" leads outside " + root.string() +
                " through a symbolic link");
  return path;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  io::AtomicFile out(path);
  out.stream() << text;
  out.commit();
}

std::vector<std::filesystem::path> tree_files(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec); !ec && it != std::filesystem::recursive_directory_iterator();
       it.increment(ec)) {
    const auto& entry = *it;
    // Not part of the sources: version control, and in-source build directories (their
    // CMakeCache.txt would make `cmake -S` in a copy refuse to configure).
    if (entry.is_directory() &&
        (entry.path().filename() == ".git" || std::filesystem::exists(entry.path() / "CMakeCache.txt"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (entry.is_regular_file()) files.push_back(entry.path().lexically_relative(root));
  }
  if (ec) throw Error(root.string(), 0, "cannot read the source tree: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

void sync_tree(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code ec;
  std::filesystem::create_directories(to, ec);
  if (ec) throw Error(to.string(), 0, "cannot create the work tree: " + ec.message());
  for (const auto& relative : tree_files(from)) {
    const std::filesystem::path source = from / relative;
    const std::filesystem::path target = to / relative;
    const std::string text = read_text(source);
    if (std::filesystem::is_regular_file(target) && std::filesystem::file_size(target) == text.size() &&
        read_text(target) == text)
      continue;
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) throw Error(target.parent_path().string(), 0, "cannot create the directory: " + ec.message());
    write_text(target, text);
    // AtomicFile creates files 0666 & ~umask: give back the execute bits of scripts.
    std::filesystem::permissions(target, std::filesystem::status(source).permissions(), ec);
    if (ec) throw Error(target.string(), 0, "cannot set the permissions: " + ec.message());
  }
}

SeededFile::SeededFile(std::filesystem::path path, const std::string& text)
    : path_(std::move(path)), previous_(read_text(path_)) {
  write_text(path_, text);
}

SeededFile::~SeededFile() {
  try {
    restore();
  } catch (const std::exception&) {
    // Nothing better to do while unwinding; sync_tree repairs the tree on the next run.
  }
}

void SeededFile::restore() {
  if (restored_) return;
  restored_ = true;
  write_text(path_, previous_);
}

}  // namespace dlfl::bench
