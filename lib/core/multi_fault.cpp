// FLITSR: iterative test suite reduction for multiple faults (Callaghan and Fischer, ISSTA 2023).
#include "dlfl/multi_fault.h"

#include <algorithm>
#include <numeric>

#include "dlfl/counts.h"

namespace dlfl {
namespace {

// Counts over the active tests only (a removed test leaves the suite entirely).
Counts active_counts(const Spectrum& s, const std::vector<char>& active) {
  const auto n = static_cast<Eigen::Index>(s.element_count());
  Eigen::ArrayXd ef = Eigen::ArrayXd::Zero(n), ep = Eigen::ArrayXd::Zero(n);
  const auto& tests = s.tests();
  double failed = 0, passed = 0;
  for (std::size_t t = 0; t < tests.size(); ++t) {
    if (!active[t]) continue;
    failed += tests[t].failure_weight;
    passed += 1.0 - tests[t].failure_weight;
  }
  for (Eigen::Index e = 0; e < n; ++e) {
    for (const std::uint32_t t : s.coverage().tests_of(static_cast<std::size_t>(e))) {
      if (!active[t]) continue;
      ef[e] += tests[t].failure_weight;
      ep[e] += 1.0 - tests[t].failure_weight;
    }
  }
  return Counts::from(std::move(ef), std::move(ep), failed, passed);
}

}  // namespace

std::optional<MultiFault> parse_multi_fault(std::string_view name) noexcept {
  if (name == "flitsr") return MultiFault::flitsr;
  return std::nullopt;
}

std::string_view multi_fault_name(MultiFault technique) noexcept {
  switch (technique) {
    case MultiFault::flitsr: return "flitsr";
  }
  return "flitsr";
}

MultiFaultRanking flitsr(const Spectrum& spectrum, const Formula& formula, std::span<const std::uint64_t> tie_keys) {
  const std::size_t n = spectrum.element_count();
  const auto& tests = spectrum.tests();
  std::vector<char> active(tests.size(), 1);
  std::vector<char> in_basis(n, 0);
  MultiFaultRanking result;

  const Eigen::ArrayXd whole_suite = formula.score(compute_counts(spectrum));
  auto failing_left = [&] {
    for (std::size_t t = 0; t < tests.size(); ++t)
      if (active[t] && tests[t].failed()) return true;
    return false;
  };
  while (failing_left()) {
    const Counts counts = active_counts(spectrum, active);
    const Eigen::ArrayXd scores = formula.score(counts);
    // The best element that an active failing test runs (ef > 0): an element no failing
    // test runs explains nothing.
    std::size_t best = n;
    for (std::size_t e = 0; e < n; ++e) {
      const auto i = static_cast<Eigen::Index>(e);
      if (in_basis[e] || counts.ef[i] <= 0) continue;
      if (best == n) {
        best = e;
        continue;
      }
      const auto b = static_cast<Eigen::Index>(best);
      const auto key = [&](std::size_t x) { return x < tie_keys.size() ? tie_keys[x] : 0; };
      if (scores[i] > scores[b] || (scores[i] == scores[b] && (counts.ef[i] > counts.ef[b] ||
                                                               (counts.ef[i] == counts.ef[b] && key(e) < key(best)))))
        best = e;
    }
    if (best == n) break;
    in_basis[best] = 1;
    result.basis.push_back(static_cast<std::uint32_t>(best));
    for (const std::uint32_t t : spectrum.coverage().tests_of(best))
      if (tests[t].failed()) active[t] = 0;
  }

  // Ordinal scores: the others by their whole-suite score (dense ranks keep their ties),
  // the basis above all of them in the order found.
  std::vector<double> distinct;
  for (std::size_t e = 0; e < n; ++e)
    if (!in_basis[e]) distinct.push_back(whole_suite[static_cast<Eigen::Index>(e)]);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  result.scores.resize(static_cast<Eigen::Index>(n));
  for (std::size_t e = 0; e < n; ++e) {
    if (in_basis[e]) continue;
    const double s = whole_suite[static_cast<Eigen::Index>(e)];
    result.scores[static_cast<Eigen::Index>(e)] =
        static_cast<double>(std::lower_bound(distinct.begin(), distinct.end(), s) - distinct.begin());
  }
  const auto top = static_cast<double>(distinct.size());
  for (std::size_t i = 0; i < result.basis.size(); ++i)
    result.scores[result.basis[i]] = top + static_cast<double>(result.basis.size() - i);
  return result;
}

}  // namespace dlfl
