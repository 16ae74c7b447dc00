// Ground truth from a faulty version's diff (include/dlfl/bench/version_truth.h).
#include "dlfl/bench/version_truth.h"

#include <algorithm>
#include <charconv>

#include "dlfl/error.h"

namespace dlfl::bench {
namespace {

// "a[,b]" at the front of `text` (after the sign); b defaults to 1, as in diff's output.
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

}  // namespace

std::vector<DiffHunk> parse_diff_hunks(std::string_view diff, const std::string& source) {
  std::vector<DiffHunk> hunks;
  std::size_t line_number = 0;
  for (std::size_t begin = 0; begin < diff.size();) {
    const std::size_t end = std::min(diff.find('\n', begin), diff.size());
    std::string_view line = diff.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (!line.starts_with("@@ ")) continue;
    line.remove_prefix(3);
    DiffHunk h;
    bool ok = line.starts_with('-');
    if (ok) {
      line.remove_prefix(1);
      ok = parse_range(line, h.old_start, h.old_count) && line.starts_with(" +");
    }
    if (ok) {
      line.remove_prefix(2);
      ok = parse_range(line, h.new_start, h.new_count) && line.starts_with(" @@");
    }
    if (!ok) throw Error(source, line_number, "malformed hunk header (expected '@@ -a,b +c,d @@')");
    hunks.push_back(h);
  }
  return hunks;
}

std::vector<std::uint32_t> faulty_version_lines(std::span<const DiffHunk> hunks,
                                                std::span<const std::uint32_t> executable) {
  std::vector<std::uint32_t> out;
  for (const DiffHunk& h : hunks) {
    // The version's changed lines are [first, last]; a deletion has none and sits after
    // new_start (0: before the first line).
    const std::uint32_t first = h.new_count ? h.new_start : h.new_start + 1;
    const std::uint32_t last = h.new_count ? h.new_start + h.new_count - 1 : h.new_start;
    const auto lo = std::lower_bound(executable.begin(), executable.end(), first);
    const auto hi = std::upper_bound(executable.begin(), executable.end(), last);
    if (h.new_count && lo < hi) {
      out.insert(out.end(), lo, hi);
      continue;
    }
    if (lo != executable.begin()) out.push_back(*(lo - 1));  // nearest above
    if (hi != executable.end()) out.push_back(*hi);          // nearest below
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace dlfl::bench
