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

  const Coverage& cov = spectrum.coverage();
  std::vector<std::uint64_t> offsets{0};
  offsets.reserve(cov.tests() + 1);
  std::vector<std::uint32_t> indices;
  indices.reserve(cov.nnz());
  for (std::size_t t = 0; t < cov.tests(); ++t) {
    const auto start = static_cast<std::ptrdiff_t>(indices.size());
    for (auto e : cov.row(t)) indices.push_back(group_of[e]);
    std::sort(indices.begin() + start, indices.end());
    indices.erase(std::unique(indices.begin() + start, indices.end()), indices.end());
    offsets.push_back(indices.size());
  }
  indices.shrink_to_fit();
  const std::size_t group_count = groups.size();
  Coverage coverage(group_count, std::move(offsets), std::move(indices), /*validate=*/false);
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
