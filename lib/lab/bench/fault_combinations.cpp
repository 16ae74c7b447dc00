// Drawing multi-fault combinations (include/dlfl/lab/bench/fault_combinations.h).
#include "dlfl/lab/bench/fault_combinations.h"

#include <algorithm>
#include <random>

#include "dlfl/lab/mutate/sampling.h"

namespace dlfl::bench {
namespace {

bool overlap(const mutate::Mutant& a, const mutate::Mutant& b) {
  const auto end = [](const mutate::Mutant& m) { return std::max(m.line, m.end_line); };
  return a.file == b.file && a.line <= end(b) && b.line <= end(a);
}

}  // namespace

std::vector<FaultCombination> plan_combinations(std::span<const mutate::Mutant> mutants,
                                                const std::set<std::string>& failing_alone,
                                                const MultiFaultConfig& config, std::uint64_t seed) {
  std::vector<FaultCombination> out;
  if (!config.enabled() || config.combinations == 0) return out;
  std::mt19937_64 rng(seed);
  for (const bool dl : {true, false}) {
    std::vector<const mutate::Mutant*> candidates;
    for (const auto& m : mutants)
      if (mutate::is_dl(m.bug_type) == dl && failing_alone.contains(m.id)) candidates.push_back(&m);
    for (unsigned k = config.min_k; k <= config.max_k; ++k) {
      if (candidates.size() < k) break;
      std::set<std::string> seen;
      // Rejections (overlaps, repeats) cost draws; a small candidate set may not have
      // `combinations` distinct sets at all, so the draws are bounded.
      for (std::size_t draw = 0; draw < 50 * config.combinations && seen.size() < config.combinations; ++draw) {
        std::vector<const mutate::Mutant*> pool = candidates;
        for (unsigned i = 0; i < k; ++i) std::swap(pool[i], pool[i + mutate::uniform_below(rng, pool.size() - i)]);
        std::vector<const mutate::Mutant*> pick(pool.begin(), pool.begin() + k);
        bool placeable = true;
        for (unsigned i = 0; i < k && placeable; ++i)
          for (unsigned j = i + 1; j < k && placeable; ++j) placeable = !overlap(*pick[i], *pick[j]);
        if (!placeable) continue;
        std::sort(pick.begin(), pick.end(), [](const auto* a, const auto* b) { return a->id < b->id; });
        std::string id;
        for (const auto* m : pick) id += (id.empty() ? "" : "+") + m->id;
        if (seen.insert(id).second) out.push_back({std::move(id), std::move(pick)});
      }
    }
  }
  return out;
}

}  // namespace dlfl::bench
