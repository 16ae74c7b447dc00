// copy_tree() and the build-output checks it skips by (source_tree_copy.h).
#include "source_tree_copy.h"

namespace dlfl::instrument::detail {

namespace fs = std::filesystem;

// A directory of build outputs: a CMake or ninja build tree, setuptools' build/ (with its
// temp.*, lib.*, bdist.* folders), dist/, *.egg-info and __pycache__. Copied into out_dir,
// such outputs look up to date to the build of the instrumented tree, which then links
// (or Python imports) the old uninstrumented objects.
bool is_build_output_directory(const fs::path& dir, const std::string& name) {
  if (name == "__pycache__" || name == "dist" || name.ends_with(".egg-info")) return true;
  std::error_code ec;
  if (fs::exists(dir / "CMakeCache.txt", ec) || fs::exists(dir / "build.ninja", ec)) return true;
  if (name != "build") return false;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string sub = entry.path().filename().string();
    if (sub.starts_with("temp.") || sub.starts_with("lib.") || sub.starts_with("bdist.")) return true;
  }
  return false;
}

// Objects, libraries and compiled Python: outputs of an earlier build of root.
bool is_build_output_file(const std::string& name) {
  static constexpr std::string_view kSuffixes[] = {".o", ".obj", ".a", ".so", ".pyd", ".dylib", ".pyc", ".lo"};
  for (const std::string_view suffix : kSuffixes)
    if (name.ends_with(suffix)) return true;
  return name.find(".so.") != std::string::npos;  // libfoo.so.1
}

// Copies root into out_dir, skipping build outputs (trees and files, above), hidden
// entries, out_dir itself and the files that were rewritten, so out_dir configures and
// builds like a clean checkout of root. A copy newer than its original is left alone (its
// modification time too, so a build of out_dir stays incremental), except the `stale`
// ones: files an earlier run rewrote.
void copy_tree(const fs::path& root, const fs::path& out_dir, const fs::path& build_dir,
               const std::set<fs::path>& rewritten, const std::set<fs::path>& stale) {
  auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
  for (; it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    if (it->is_directory()) {
      std::error_code ec;
      fs::path c = fs::weakly_canonical(fs::absolute(p), ec);
      if (ec) c = fs::absolute(p).lexically_normal();
      if (name.starts_with(".") || c == out_dir || c == build_dir || is_build_output_directory(p, name))
        it.disable_recursion_pending();
      continue;
    }
    if (name.starts_with(".") || is_build_output_file(name)) continue;
    const fs::path target = out_dir / p.lexically_relative(root);
    if (rewritten.count(target)) continue;
    fs::create_directories(target.parent_path());
    if (it->is_symlink()) {
      fs::remove(target);
      fs::copy_symlink(p, target);
    } else if (it->is_regular_file()) {
      fs::copy_file(p, target, stale.count(target) ? fs::copy_options::overwrite_existing
                                                   : fs::copy_options::update_existing);
    }
  }
}

}  // namespace dlfl::instrument::detail
