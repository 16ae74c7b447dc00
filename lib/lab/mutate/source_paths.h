// Path comparisons of the mutation passes: the compilation database, the source root and
// clang name the same files in different spellings.
#pragma once

#include <filesystem>

namespace dlfl::mutate::detail {

// The canonical path where it exists (symlinks resolved), else the absolute normal one.
inline std::filesystem::path canonical_or_absolute(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path c = std::filesystem::weakly_canonical(std::filesystem::absolute(p), ec);
  return ec ? std::filesystem::absolute(p).lexically_normal() : c;
}

// Strictly below `dir`.
inline bool is_under(const std::filesystem::path& path, const std::filesystem::path& dir) {
  const auto rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && rel != ".";
}

}  // namespace dlfl::mutate::detail
