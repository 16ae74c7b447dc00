// Source files of reports confined to the source root (lib/report/source_file.h).
#include "source_file.h"

#include <algorithm>

namespace dlfl::io::detail {

std::optional<std::filesystem::path> confined_source_file(const std::filesystem::path& root,
                                                          std::string_view file) noexcept {
  namespace fs = std::filesystem;
  try {
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(fs::absolute(root.empty() ? fs::path(".") : root, ec), ec);
    if (ec) return std::nullopt;
    const fs::path named(file);
    const fs::path resolved = fs::weakly_canonical(named.is_absolute() ? named : base / named, ec);
    if (ec) return std::nullopt;
    // Component by component: /src/a is not inside /src/ab.
    const auto [b, r] = std::mismatch(base.begin(), base.end(), resolved.begin(), resolved.end());
    if (b != base.end() || r == resolved.end()) return std::nullopt;
    return resolved;
  } catch (...) {  // allocation
    return std::nullopt;
  }
}

}  // namespace dlfl::io::detail
