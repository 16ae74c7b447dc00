// Unified diffs into per-file changed lines (include/dlfl/lab/eval/unified_diff.h).
#include "dlfl/lab/eval/unified_diff.h"

#include <algorithm>
#include <charconv>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

// "a[,b]" at the front of `text`; b defaults to 1, as diff writes it.
bool parse_range(std::string_view& text, std::uint32_t& start, std::uint32_t& count) {
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, start);
  if (ec != std::errc()) return false;
  count = 1;
  if (p != end && *p == ',') {
    auto [q, ec2] = std::from_chars(p + 1, end, count);
    if (ec2 != std::errc()) return false;
    p = q;
  }
  text.remove_prefix(static_cast<std::size_t>(p - text.data()));
  return true;
}

// git writes a path with unusual bytes C-quoted: "a/x\tb". Unquotes the common escapes.
std::string unquoted(std::string_view path) {
  if (path.size() < 2 || path.front() != '"' || path.back() != '"') return std::string(path);
  std::string out;
  for (std::size_t i = 1; i + 1 < path.size(); ++i) {
    if (path[i] != '\\' || i + 2 >= path.size()) {
      out += path[i];
      continue;
    }
    const char c = path[++i];
    if (c >= '0' && c <= '7' && i + 2 < path.size() - 1) {  // \ooo: one byte, octal
      out += static_cast<char>(((c - '0') << 6) | ((path[i + 1] - '0') << 3) | (path[i + 2] - '0'));
      i += 2;
      continue;
    }
    out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
  }
  return out;
}

// The path of a "--- " / "+++ " line: "" for /dev/null, else without the "a/"-style
// prefix and without a timestamp after a tab (diff -u writes one).
std::string header_path(std::string_view text) {
  if (text.front() != '"')
    if (const auto tab = text.find('\t'); tab != std::string_view::npos) text = text.substr(0, tab);
  std::string path = unquoted(text);
  if (path == "/dev/null") return {};
  if (const auto slash = path.find('/'); slash != std::string::npos && slash > 0) path.erase(0, slash + 1);
  return path;
}

void sort_unique(std::vector<std::uint32_t>& lines) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
}

}  // namespace

std::vector<DiffFile> parse_unified_diff(std::string_view text, const std::string& source) {
  std::vector<DiffFile> files;
  bool git_header = false;  // the current file began with "diff --git": "---" belongs to it
  std::uint32_t old_left = 0, new_left = 0, old_line = 0, new_line = 0;
  std::size_t hunk_line = 0;
  std::size_t number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (old_left || new_left) {  // inside a hunk's body
      const char kind = line.empty() ? ' ' : line.front();
      if (kind == '\\') continue;  // "\ No newline at end of file"
      DiffFile& file = files.back();
      if (kind == ' ' && old_left && new_left) {
        ++old_line, ++new_line, --old_left, --new_left;
      } else if (kind == '-' && old_left) {
        file.removed_lines.push_back(old_line++);
        --old_left;
      } else if (kind == '+' && new_left) {
        file.added_lines.push_back(new_line++);
        --new_left;
      } else {
        throw Error(source, number, "the hunk starting at line " + std::to_string(hunk_line) +
                                        " ends before its header's line counts are reached");
      }
      continue;
    }
    if (line.starts_with("diff --git ")) {
      files.emplace_back();
      files.back().header_line = number;
      git_header = true;
      // "diff --git a/X b/Y": the paths when no ---/+++ follow (a binary or a pure rename).
      const std::string_view rest = line.substr(11);
      if (const auto split = rest.find(" b/"); split != std::string_view::npos && rest.starts_with("a/")) {
        files.back().old_path = std::string(rest.substr(2, split - 2));
        files.back().new_path = std::string(rest.substr(split + 3));
      }
    } else if (line.starts_with("--- ") && begin < text.size() && text.substr(begin).starts_with("+++ ")) {
      if (!git_header) {
        files.emplace_back();
        files.back().header_line = number;
      }
      git_header = false;
      files.back().old_path = header_path(line.substr(4));
    } else if (line.starts_with("+++ ") && !files.empty()) {
      files.back().new_path = header_path(line.substr(4));
    } else if (git_header && line.starts_with("rename from ")) {
      files.back().old_path = unquoted(line.substr(12));
    } else if (git_header && line.starts_with("rename to ")) {
      files.back().new_path = unquoted(line.substr(10));
    } else if (git_header && line.starts_with("new file mode")) {
      files.back().old_path.clear();
    } else if (git_header && line.starts_with("deleted file mode")) {
      files.back().new_path.clear();
    } else if (!files.empty() && (line == "GIT binary patch" || (line.starts_with("Binary files ") && line.ends_with(" differ")))) {
      files.back().binary = true;
    } else if (line.starts_with("@@ ")) {
      if (files.empty()) throw Error(source, number, "a hunk before any file header (--- / +++)");
      const std::optional<HunkRanges> ranges = parse_hunk_header(line);
      if (!ranges) throw Error(source, number, "malformed hunk header (expected '@@ -a,b +c,d @@')");
      old_line = ranges->old_start, new_line = ranges->new_start;
      const std::uint32_t old_count = ranges->old_count, new_count = ranges->new_count;
      // A side with no lines starts at the line before the change; the first line of a
      // side with lines is its start.
      old_left = old_count, new_left = new_count;
      hunk_line = number;
      git_header = false;
    }
  }
  if (old_left || new_left)
    throw Error(source, number, "the hunk starting at line " + std::to_string(hunk_line) + " is cut short");
  for (DiffFile& file : files) {
    sort_unique(file.removed_lines);
    sort_unique(file.added_lines);
  }
  return files;
}

std::optional<HunkRanges> parse_hunk_header(std::string_view line) noexcept {
  if (!line.starts_with("@@ -")) return std::nullopt;
  line.remove_prefix(4);
  HunkRanges r;
  if (!parse_range(line, r.old_start, r.old_count) || !line.starts_with(" +")) return std::nullopt;
  line.remove_prefix(2);
  if (!parse_range(line, r.new_start, r.new_count) || !line.starts_with(" @@")) return std::nullopt;
  return r;
}

}  // namespace dlfl::eval
