// PathFilter: source root and exclude globs (fnmatch) decide the elements' files.
#include "dlfl/collect/path_filter.h"

#include <fnmatch.h>

#include "dlfl/error.h"

namespace dlfl::collect {

PathFilter::PathFilter(PathFilterOptions options) {
  if (!options.source_root.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.source_root, ec))
      throw Error(options.source_root.string(), 0, "the source root is not a directory");
    root_ = std::filesystem::canonical(options.source_root);
    root_prefix_ = root_.string();
    if (!root_prefix_.ends_with('/')) root_prefix_ += '/';
  }
  patterns_ = std::move(options.excludes);
  include_system_ = options.include_system;
}

bool PathFilter::excluded(std::string_view path) const {
  const std::string text(path);
  const std::string rooted = root_.empty() || path.starts_with('/') ? std::string() : "/" + text;
  for (const auto& pattern : patterns_) {
    if (::fnmatch(pattern.c_str(), text.c_str(), 0) == 0) return true;
    if (!rooted.empty() && ::fnmatch(pattern.c_str(), rooted.c_str(), 0) == 0) return true;
  }
  return false;
}

std::optional<std::string> PathFilter::map(std::string_view path, const std::filesystem::path& base) const {
  std::filesystem::path p(path);
  if (p.is_relative() && !base.empty()) p = base / p;
  p = p.lexically_normal();
  // Resolve symlinks (and a relative path against dlfl's directory) when the file exists;
  // coverage data of a deleted file keeps its recorded path.
  std::error_code ec;
  if (auto resolved = std::filesystem::canonical(p, ec); !ec) p = std::move(resolved);
  std::string absolute = p.string();
  if (!include_system_)
    for (const auto system : kSystemExcludes)
      if (::fnmatch(std::string(system).c_str(), absolute.c_str(), 0) == 0) return std::nullopt;
  if (root_.empty()) return excluded(absolute) ? std::nullopt : std::optional<std::string>(std::move(absolute));
  if (!absolute.starts_with(root_prefix_)) return std::nullopt;
  std::string relative = absolute.substr(root_prefix_.size());
  if (excluded(relative)) return std::nullopt;
  return relative;
}

}  // namespace dlfl::collect
