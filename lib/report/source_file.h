// Where a report may read an element's source: inside the source root only, so that a
// report made to be shared never embeds a file the spectrum names outside it (`../x`, an
// absolute path, a link that leads out). Internal to lib/report.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace dlfl::io::detail {

// `file` (an element's file as the spectrum holds it, or as report_path gives it)
// resolved against `root` (the current directory when empty), with every symbolic link
// resolved; nullopt when that lies outside `root` (also resolved), or is `root` itself.
// Never throws.
std::optional<std::filesystem::path> confined_source_file(const std::filesystem::path& root,
                                                          std::string_view file) noexcept;

}  // namespace dlfl::io::detail
