// PathFilter: which source files become spectrum elements and under what name.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::collect {

struct PathFilterOptions {
  // When set, only files under this directory are kept, named relative to it
  // (`src/a.cpp`). Otherwise files keep their absolute, normalized path.
  std::filesystem::path source_root;
  // fnmatch(3) patterns without FNM_PATHNAME, so `*` also matches '/'. With a source
  // root they are matched against the root-relative path, both as is and with a leading
  // '/' (so `*/tests/*` also leaves out the top-level `tests/a.cpp`, and a root that
  // itself lies under some `tests/` directory does not exclude everything); without
  // one, against the absolute path. E.g. `*/tests/*`, `*_test.cpp`, `third_party/*`.
  std::vector<std::string> excludes;
  // Keep system and toolchain headers (kSystemExcludes); off by default.
  bool include_system = false;
};

// Left out unless PathFilterOptions::include_system: the C/C++ library and compiler
// headers (libstdc++ templates are instantiated into every test) and installed
// third-party headers such as GoogleTest's. Matched against absolute paths, before the
// source root is applied.
inline constexpr std::string_view kSystemExcludes[] = {"/usr/include/*", "/usr/lib/*", "/usr/local/include/*",
                                                       "/usr/local/lib/*", "/usr/share/*"};

class PathFilter {
 public:
  // Throws dlfl::Error when the source root does not exist or is not a directory.
  explicit PathFilter(PathFilterOptions options);

  // The name a file gets in the spectrum, or nullopt when it is left out. `path` is the
  // path from the coverage data; a relative one is taken relative to `base` (the
  // compilation directory). Paths are normalized lexically ("a/../b" → "b") and then
  // through symlinks when the file exists, so a source root given via a symlink still
  // matches. Thread-safe (const, no shared state).
  std::optional<std::string> map(std::string_view path, const std::filesystem::path& base = {}) const;

  // The pattern test alone: true when an exclude pattern matches `path` (the path
  // relative to the source root when there is one, else the absolute path) as described
  // at PathFilterOptions::excludes.
  bool excluded(std::string_view path) const;

  const std::filesystem::path& source_root() const noexcept { return root_; }

 private:
  std::filesystem::path root_;  // canonical; empty when none
  std::string root_prefix_;     // root_ + '/'
  std::vector<std::string> patterns_;
  bool include_system_ = false;
};

}  // namespace dlfl::collect
