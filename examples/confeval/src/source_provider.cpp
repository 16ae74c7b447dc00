// Include-name resolution and the two built-in source providers.
#include "confeval/source_provider.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace confeval {

std::string SourceProvider::resolve(const std::string& including,
                                    const std::string& target) const {
  const std::filesystem::path path(target);
  if (path.is_absolute()) {
    return path.lexically_normal().generic_string();
  }
  // Lexical only: the names need not exist on disk (MemorySources) and symlinks are not
  // followed, so "a/../b" means the same thing in both providers.
  return (std::filesystem::path(including).parent_path() / path)
      .lexically_normal()
      .generic_string();
}

std::optional<std::string> MemorySources::read(const std::string& name) const {
  const auto it = files_.find(name);
  if (it == files_.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::optional<std::string> FileSources::read(const std::string& name) const {
  std::ifstream in(name, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace confeval
