// The ground truth of a real bug from its fix (include/dlfl/lab/bench/fix_truth.h).
#include "dlfl/lab/bench/fix_truth.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_candidates.h"

namespace dlfl::bench {
namespace {

std::vector<std::uint32_t> sorted_unique(std::vector<std::uint32_t> lines, const std::string& file) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  if (!lines.empty() && lines.front() == 0) throw Error(file, 0, "a changed line numbered 0 (lines count from 1)");
  return lines;
}

}  // namespace

std::string_view to_string(TruthRule rule) noexcept {
  return rule == TruthRule::whole_file ? "whole-file" : "adjacent-lines";
}

std::optional<TruthRule> parse_truth_rule(std::string_view text) noexcept {
  if (text == "adjacent-lines") return TruthRule::adjacent_lines;
  if (text == "whole-file") return TruthRule::whole_file;
  return std::nullopt;
}

std::vector<DiffHunk> buggy_version_hunks(const eval::FileChange& file) {
  if (file.change_type == eval::ChangeType::add) return {};
  if (file.change_type == eval::ChangeType::delete_)
    return {{0, 0, 1, std::numeric_limits<std::uint32_t>::max() - 1}};
  const auto deleted = sorted_unique(file.deleted_lines, file.path());
  const auto added = sorted_unique(file.added_lines, file.path());
  // Walk both versions from the top: an unchanged line advances both numberings, a
  // deleted line the buggy one, an added line the fixed one.
  std::vector<DiffHunk> hunks;
  std::size_t d = 0, a = 0;
  std::uint32_t buggy = 1, fixed = 1;
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  while (d < deleted.size() || a < added.size()) {
    const std::uint32_t to_deleted = d < deleted.size() ? deleted[d] - buggy : none;
    const std::uint32_t to_added = a < added.size() ? added[a] - fixed : none;
    const std::uint32_t unchanged = std::min(to_deleted, to_added);
    buggy += unchanged;
    fixed += unchanged;
    DiffHunk h{fixed, 0, buggy, 0};  // old: the fixed version, new: the buggy one
    for (bool more = true; more;) {
      more = false;
      for (; d < deleted.size() && deleted[d] == buggy; ++d, ++buggy, ++h.new_count) more = true;
      for (; a < added.size() && added[a] == fixed; ++a, ++fixed, ++h.old_count) more = true;
    }
    // An empty side sits after the line before it, as diff writes it.
    if (h.new_count == 0) h.new_start = buggy - 1;
    if (h.old_count == 0) h.old_start = fixed - 1;
    hunks.push_back(h);
  }
  return hunks;
}

std::vector<eval::GroundTruthItem> fix_truth(const eval::BugReport& bug, const Spectrum& spectrum, TruthRule rule) {
  const eval::GroundTruthOptions options = eval::reproduction_truth_options();
  if (rule == TruthRule::whole_file) return eval::ground_truth(bug, options);
  std::map<std::string, std::vector<DiffHunk>> changes;
  for (const eval::FileChange& file : bug.files) {
    if (!options.keep_file(file.path())) continue;
    auto hunks = buggy_version_hunks(file);
    if (hunks.empty()) continue;
    auto& all = changes[file.old_name];
    all.insert(all.end(), hunks.begin(), hunks.end());
  }
  return spectrum_truth(spectrum, changes);
}

}  // namespace dlfl::bench
