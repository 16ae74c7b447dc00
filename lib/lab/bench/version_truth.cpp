// Ground truth from a faulty version's diff (include/dlfl/lab/bench/version_truth.h).
#include "dlfl/lab/bench/version_truth.h"

#include <algorithm>

#include "dlfl/error.h"
#include "dlfl/lab/eval/fault_matching.h"
#include "dlfl/lab/eval/unified_diff.h"

namespace dlfl::bench {
std::vector<DiffHunk> parse_diff_hunks(std::string_view diff, const std::string& source) {
  std::vector<DiffHunk> hunks;
  std::size_t line_number = 0;
  for (std::size_t begin = 0; begin < diff.size();) {
    const std::size_t end = std::min(diff.find('\n', begin), diff.size());
    std::string_view line = diff.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (!line.starts_with("@@ ")) continue;
    const std::optional<eval::HunkRanges> ranges = eval::parse_hunk_header(line);
    if (!ranges) throw Error(source, line_number, "malformed hunk header (expected '@@ -a,b +c,d @@')");
    const DiffHunk h{ranges->old_start, ranges->old_count, ranges->new_start, ranges->new_count};
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

std::vector<eval::GroundTruthItem> spectrum_truth(const Spectrum& spectrum,
                                                  const std::map<std::string, std::vector<DiffHunk>>& changes) {
  std::vector<eval::GroundTruthItem> truth;
  for (const auto& [file, hunks] : changes) {
    std::vector<std::uint32_t> executable;
    std::map<std::uint32_t, std::string> function_of;
    for (std::size_t e = 0; e < spectrum.element_count(); ++e) {
      const auto& element = spectrum.element(e);
      if (element.first_line == 0 || !eval::same_file(spectrum.file(e), file)) continue;
      for (std::uint32_t l = element.first_line; l <= std::max(element.first_line, element.last_line); ++l) {
        executable.push_back(l);
        function_of.emplace(l, std::string(spectrum.function(e)));
      }
    }
    std::sort(executable.begin(), executable.end());
    executable.erase(std::unique(executable.begin(), executable.end()), executable.end());
    for (const auto line : faulty_version_lines(hunks, executable)) truth.push_back({file, line, function_of[line]});
  }
  return truth;
}

}  // namespace dlfl::bench
