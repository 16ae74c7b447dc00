// ScoredElement: rankings from a spectrum's scores, and lifting them to functions/files.
#include "dlfl/eval/scored_element.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "dlfl/error.h"
#include "dlfl/eval/fault_matching.h"

namespace dlfl::eval {
namespace {

constexpr double unscored = std::numeric_limits<double>::quiet_NaN();

// Max that ignores unscored (NaN) values: NaN only when both are.
double max_score(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return std::max(a, b);
}

}  // namespace

std::vector<ScoredElement> scored_elements(const Spectrum& spectrum, const Eigen::ArrayXd& scores) {
  const std::size_t count = spectrum.element_count();
  if (static_cast<std::size_t>(scores.size()) != count) {
    throw Error("scored_elements: " + std::to_string(scores.size()) + " scores for " +
                std::to_string(count) + " elements");
  }
  const Coverage& coverage = spectrum.coverage();

  std::vector<ScoredElement> ranking(count);
  for (std::size_t e = 0; e < count; ++e) {
    const ElementRecord& record = spectrum.element(e);
    ScoredElement& out = ranking[e];
    out.key = spectrum.element_name(e);
    if (record.kind == ElementKind::code) {
      out.file = std::string(spectrum.file(e));
      out.function = std::string(spectrum.function(e));
      out.first_line = record.first_line;
      out.last_line = record.last_line;
    }
    // A never-executed element has no evidence either way; Zou et al. (TSE 2021) put all
    // of them in one last tie rather than trusting whatever the formula made of zeros.
    out.score = !coverage.tests_of(e).empty() ? scores[static_cast<Eigen::Index>(e)] : unscored;
  }
  return ranking;
}

std::vector<ScoredElement> lift(std::span<const ScoredElement> ranking, Granularity level) {
  if (level == Granularity::line) return {ranking.begin(), ranking.end()};

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
      groups.push_back(std::move(group));
      continue;
    }
    ScoredElement& group = groups[it->second];
    group.score = max_score(group.score, element.score);
    if (level == Granularity::function && element.first_line != 0) {
      group.first_line =
          group.first_line ? std::min(group.first_line, element.first_line) : element.first_line;
      group.last_line = std::max(group.last_line, element.end_line());
    }
  }
  return groups;
}

}  // namespace dlfl::eval
