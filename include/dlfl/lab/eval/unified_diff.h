// A multi-file unified diff (`git diff`, `git format-patch`, `diff -u`) read into the
// lines each file's hunks remove and add: the ground truth of a bug given as a patch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::eval {

// One file of a diff. Paths are as the diff names them with the one-component prefix
// ("a/", "b/") removed; old_path is empty when the diff creates the file (/dev/null),
// new_path when it deletes it. Line lists are 1-based, ascending, without duplicates.
struct DiffFile {
  std::string old_path;
  std::string new_path;
  std::size_t header_line = 0;             // 1-based line of the patch where the file starts
  std::vector<std::uint32_t> removed_lines;  // '-' lines, old-file numbering
  std::vector<std::uint32_t> added_lines;    // '+' lines, new-file numbering
  bool binary = false;                       // "Binary files differ" / "GIT binary patch"
};

// Every file of the diff in order. Text outside the files (a mail header, the "-- "
// signature of format-patch) is ignored: a hunk's body is exactly as long as its header
// says. Throws dlfl::Error "SOURCE:LINE: what" for a malformed hunk header, a hunk that
// ends before its header's counts are reached, or a hunk before any file header.
std::vector<DiffFile> parse_unified_diff(std::string_view text, const std::string& source);

// The line ranges of a hunk header "@@ -a[,b] +c[,d] @@ ..." (b and d default to 1, as
// diff writes them), or nullopt when `line` is not one.
struct HunkRanges {
  std::uint32_t old_start = 0, old_count = 0, new_start = 0, new_count = 0;
};
std::optional<HunkRanges> parse_hunk_header(std::string_view line) noexcept;

}  // namespace dlfl::eval
