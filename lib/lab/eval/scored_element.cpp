// Lifting rankings to blocks, functions and files.
#include "dlfl/lab/eval/scored_element.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "dlfl/error.h"
#include "dlfl/lab/eval/fault_matching.h"

namespace dlfl::eval {
namespace {

// Max that ignores unscored (NaN) values: NaN only when both are.
double max_score(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return std::max(a, b);
}

bool same_score(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Blocks of a ranking file, which has no coverage columns: adjacent ranked lines of one
// function with the same score (a spectrum's identical columns score the same under any
// formula, so a line ranking's blocks are found again; two distinct columns that happen to
// score the same also merge, which only a spectrum can tell apart: rank with
// `--granularity block` for exact blocks). Elements already spanning lines stay as they are.
std::vector<ScoredElement> lift_to_blocks(std::span<const ScoredElement> ranking) {
  std::vector<std::size_t> order(ranking.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<std::string> files(ranking.size());
  for (std::size_t i = 0; i < ranking.size(); ++i) files[i] = normalize_path(ranking[i].file);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (files[a] != files[b]) return files[a] < files[b];
    return ranking[a].first_line < ranking[b].first_line;
  });
  std::vector<ScoredElement> blocks;
  std::size_t previous = 0;
  bool open = false;
  for (const std::size_t i : order) {
    const ScoredElement& e = ranking[i];
    const bool line = !e.file.empty() && e.first_line != 0 && e.end_line() == e.first_line;
    if (open && line) {
      const ScoredElement& p = ranking[previous];
      ScoredElement& block = blocks.back();
      if (files[previous] == files[i] && p.function == e.function && same_score(p.score, e.score) &&
          block.end_line() < e.first_line) {
        block.last_line = e.first_line;
        previous = i;
        continue;
      }
    }
    blocks.push_back(e);
    previous = i;
    open = line;
  }
  return blocks;
}

}  // namespace

std::vector<ScoredElement> lift(std::span<const ScoredElement> ranking, Granularity level) {
  if (level == Granularity::line) return {ranking.begin(), ranking.end()};
  if (level == Granularity::block) return lift_to_blocks(ranking);

  std::vector<ScoredElement> groups;
  std::unordered_map<std::string, std::size_t> group_of_key;
  for (const ScoredElement& element : ranking) {
    const bool keep_as_is =
        element.file.empty() || (level == Granularity::function && element.function.empty());
    if (keep_as_is) {
      groups.push_back(element);
      continue;
    }
    std::string key = normalize_path(element.file);
    if (level == Granularity::function) key += '#' + element.function;

    const auto [it, inserted] = group_of_key.try_emplace(key, groups.size());
    if (inserted) {
      ScoredElement group;
      group.key = key;
      group.file = element.file;
      if (level == Granularity::function) {
        group.function = element.function;
        group.first_line = element.first_line;
        group.last_line = element.end_line();
      }
      group.score = element.score;
      group.executed = element.executed;
      groups.push_back(std::move(group));
      continue;
    }
    ScoredElement& group = groups[it->second];
    group.score = max_score(group.score, element.score);
    group.executed = group.executed || element.executed;
    if (level == Granularity::function && element.first_line != 0) {
      group.first_line =
          group.first_line ? std::min(group.first_line, element.first_line) : element.first_line;
      group.last_line = std::max(group.last_line, element.end_line());
    }
  }
  return groups;
}

}  // namespace dlfl::eval
