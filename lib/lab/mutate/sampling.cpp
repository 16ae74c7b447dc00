// Stratified sampling: round-robin over operators, a seeded shuffle within each.
#include "dlfl/lab/mutate/sampling.h"

#include <algorithm>
#include <limits>
#include <map>
#include <random>

#include "dlfl/lab/mutate/operators.h"

namespace dlfl::mutate {
namespace {

std::size_t catalog_rank(const std::string& op) {
  const auto catalog = operator_catalog();
  for (std::size_t i = 0; i < catalog.size(); ++i)
    if (catalog[i].name == op) return i;
  return catalog.size();  // unknown names (read from a manifest) go last
}

}  // namespace

std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  std::uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % bound;
}

std::vector<Mutant> stratified_sample(const std::vector<Mutant>& all, std::size_t max, std::uint64_t seed) {
  if (max == 0 || max >= all.size()) return all;
  // Strata by operator, in catalog order; names tie-break unknown operators.
  std::map<std::pair<std::size_t, std::string>, std::vector<std::size_t>> strata;
  for (std::size_t i = 0; i < all.size(); ++i) strata[{catalog_rank(all[i].op), all[i].op}].push_back(i);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::size_t>*> queues;
  for (auto& [key, members] : strata) {
    for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[uniform_below(rng, i)]);
    queues.push_back(&members);
  }
  std::vector<std::size_t> chosen;
  for (std::size_t turn = 0; chosen.size() < max; ++turn)
    for (auto* queue : queues)
      if (turn < queue->size() && chosen.size() < max) chosen.push_back((*queue)[turn]);
  std::sort(chosen.begin(), chosen.end());
  std::vector<Mutant> out;
  out.reserve(chosen.size());
  for (std::size_t i : chosen) out.push_back(all[i]);
  return out;
}

}  // namespace dlfl::mutate
