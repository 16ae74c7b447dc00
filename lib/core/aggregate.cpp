// Aggregation of a line spectrum to functions or files, and max-score aggregation.
#include "dlfl/aggregate.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

namespace dlfl {

Aggregated aggregate(const Spectrum& spectrum, Granularity granularity) {
  const std::size_t n = spectrum.element_count();
  if (granularity == Granularity::line) {
    std::vector<std::uint32_t> identity(n);
    std::iota(identity.begin(), identity.end(), 0u);
    return {spectrum, std::move(identity)};
  }

  // Group keys are string ids, so grouping costs no string comparisons.
  std::map<std::pair<StringId, StringId>, std::uint32_t> group_index;
  std::vector<ElementRecord> groups;
  std::vector<std::uint32_t> group_of(n);
  for (std::size_t e = 0; e < n; ++e) {
    const ElementRecord& r = spectrum.element(e);
    if (r.kind == ElementKind::extrinsic) {
      group_of[e] = static_cast<std::uint32_t>(groups.size());
      groups.push_back(r);
      continue;
    }
    const StringId function = granularity == Granularity::function ? r.function : 0;
    auto [it, added] = group_index.try_emplace({r.file, function}, static_cast<std::uint32_t>(groups.size()));
    if (added) {
      ElementRecord g;
      g.file = r.file;
      g.function = function;
      g.first_line = r.first_line;
      g.last_line = r.last_line;
      groups.push_back(g);
    } else {
      ElementRecord& g = groups[it->second];
      if (r.first_line != 0 && (g.first_line == 0 || r.first_line < g.first_line)) g.first_line = r.first_line;
      g.last_line = std::max(g.last_line, r.last_line);
    }
    group_of[e] = it->second;
  }

  // A group's tests are the union of its members' tests: list members per group
  // (counting sort), then merge their sorted test lists.
  const Coverage& cov = spectrum.coverage();
  const std::size_t group_count = groups.size();
  std::vector<std::uint64_t> member_offsets(group_count + 1, 0);
  for (auto g : group_of) ++member_offsets[g + 1];
  for (std::size_t g = 0; g < group_count; ++g) member_offsets[g + 1] += member_offsets[g];
  std::vector<std::uint32_t> members(n);
  {
    std::vector<std::uint64_t> next(member_offsets.begin(), member_offsets.end() - 1);
    for (std::size_t e = 0; e < n; ++e) members[next[group_of[e]]++] = static_cast<std::uint32_t>(e);
  }
  std::vector<std::uint64_t> offsets{0};
  offsets.reserve(group_count + 1);
  std::vector<std::uint32_t> test_ids;
  for (std::size_t g = 0; g < group_count; ++g) {
    const auto start = static_cast<std::ptrdiff_t>(test_ids.size());
    for (std::uint64_t m = member_offsets[g]; m < member_offsets[g + 1]; ++m) {
      const auto tests = cov.tests_of(members[m]);
      test_ids.insert(test_ids.end(), tests.begin(), tests.end());
    }
    if (member_offsets[g + 1] - member_offsets[g] > 1) {
      std::sort(test_ids.begin() + start, test_ids.end());
      test_ids.erase(std::unique(test_ids.begin() + start, test_ids.end()), test_ids.end());
    }
    offsets.push_back(test_ids.size());
  }
  const Coverage coverage =
      Coverage(cov.tests(), std::move(offsets), std::move(test_ids), /*validate=*/false).compact();
  return {Spectrum(spectrum.strings(), std::move(groups), spectrum.tests(), std::move(coverage)),
          std::move(group_of)};
}

Eigen::ArrayXd max_by_group(const Eigen::ArrayXd& scores, std::span<const std::uint32_t> group_of,
                            std::size_t groups) {
  Eigen::ArrayXd out = Eigen::ArrayXd::Constant(static_cast<Eigen::Index>(groups),
                                                -std::numeric_limits<double>::max());
  for (std::size_t e = 0; e < group_of.size(); ++e) {
    double& g = out[group_of[e]];
    g = std::max(g, scores[static_cast<Eigen::Index>(e)]);
  }
  return out;
}

}  // namespace dlfl
