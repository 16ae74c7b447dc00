// Metallaxis-FL, MUSE and the SBFL/MBFL hybrid over a kill matrix (mutation_scores.h).
#include "dlfl/mutation_scores.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "dlfl/counts.h"
#include "dlfl/error.h"

namespace dlfl {

std::optional<MutationTechnique> parse_mutation_technique(std::string_view name) noexcept {
  if (name == "metallaxis") return MutationTechnique::metallaxis;
  if (name == "muse") return MutationTechnique::muse;
  if (name == "hybrid") return MutationTechnique::hybrid;
  return std::nullopt;
}

std::string_view mutation_technique_name(MutationTechnique technique) noexcept {
  switch (technique) {
    case MutationTechnique::metallaxis:
      return "metallaxis";
    case MutationTechnique::muse:
      return "muse";
    case MutationTechnique::hybrid:
      return "hybrid";
  }
  return "metallaxis";
}

std::vector<std::vector<std::uint32_t>> lines_of_mutants(const Spectrum& lines, const Spectrum& kills) {
  std::map<std::string_view, std::vector<std::uint32_t>> by_file;
  for (std::size_t e = 0; e < lines.element_count(); ++e)
    if (lines.element(e).kind == ElementKind::code) by_file[lines.file(e)].push_back(static_cast<std::uint32_t>(e));
  std::vector<std::vector<std::uint32_t>> out(kills.element_count());
  for (std::size_t m = 0; m < kills.element_count(); ++m) {
    if (kills.element(m).kind != ElementKind::code) continue;
    const auto it = by_file.find(kills.file(m));
    if (it == by_file.end()) continue;
    const std::uint32_t line = kills.element(m).first_line;
    for (const std::uint32_t e : it->second) {
      const ElementRecord& r = lines.element(e);
      const std::uint32_t last = std::max(r.first_line, r.last_line);
      if (r.first_line <= line && line <= last) out[m].push_back(e);
    }
  }
  return out;
}

Eigen::ArrayXd metallaxis_scores(const Spectrum& lines, const Spectrum& kills, const Formula& formula) {
  Eigen::ArrayXd out = Eigen::ArrayXd::Constant(static_cast<Eigen::Index>(lines.element_count()), kUnmeasuredScore);
  if (kills.element_count() == 0) return out;
  const Eigen::ArrayXd mutant = formula.score(compute_counts(kills));
  const auto on = lines_of_mutants(lines, kills);
  for (std::size_t m = 0; m < on.size(); ++m)
    for (const std::uint32_t e : on[m]) out[e] = std::max(out[e], mutant[static_cast<Eigen::Index>(m)]);
  return out;
}

Eigen::ArrayXd muse_scores(const Spectrum& lines, const Spectrum& kills) {
  Eigen::ArrayXd out = Eigen::ArrayXd::Constant(static_cast<Eigen::Index>(lines.element_count()), kUnmeasuredScore);
  if (kills.element_count() == 0) return out;
  const Counts c = compute_counts(kills);
  const double f2p = c.ef.sum(), p2f = c.ep.sum();
  const double alpha = (c.failed > 0.0 && p2f > 0.0) ? f2p * c.passed / (c.failed * p2f) : 0.0;
  const auto on = lines_of_mutants(lines, kills);
  std::vector<double> sum(lines.element_count(), 0.0);
  std::vector<std::uint32_t> mutants(lines.element_count(), 0);
  for (std::size_t m = 0; m < on.size(); ++m) {
    const auto i = static_cast<Eigen::Index>(m);
    const double term = c.ef[i] / (f2p + 1.0) - alpha * c.ep[i] / (p2f + 1.0);
    for (const std::uint32_t e : on[m]) {
      sum[e] += term;
      ++mutants[e];
    }
  }
  for (std::size_t e = 0; e < sum.size(); ++e)
    if (mutants[e] > 0) out[static_cast<Eigen::Index>(e)] = sum[e] / (mutants[e] + 1.0);
  return out;
}

Eigen::ArrayXd hybrid_scores(const Eigen::ArrayXd& sbfl, const Eigen::ArrayXd& mbfl) {
  if (sbfl.size() != mbfl.size())
    throw Error("hybrid ranking: " + std::to_string(sbfl.size()) + " SBFL scores but " + std::to_string(mbfl.size()) +
                " MBFL scores");
  const auto n = static_cast<std::size_t>(sbfl.size());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto key = [&](std::size_t e) {
    const auto i = static_cast<Eigen::Index>(e);
    return std::pair{sbfl[i], mbfl[i]};
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
  // Ordinal classes from the top: n for the best, one less for each distinct (SBFL, MBFL)
  // pair below it, so equal pairs keep one score and stay tied.
  Eigen::ArrayXd out(sbfl.size());
  double score = static_cast<double>(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0 && key(order[k]) != key(order[k - 1])) score -= 1.0;
    out[static_cast<Eigen::Index>(order[k])] = score;
  }
  return out;
}

}  // namespace dlfl
