// Multi-fault benchmark items: k mutants of one subject seeded together (`dlfl bench
// --multi-fault`), drawn from mutants that each make a test fail alone (the single-fault
// run's kept records), so every fault of a combination is observable on its own and the
// benchmark measures how a ranking copes with several at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "dlfl/lab/mutate/mutant.h"

namespace dlfl::bench {

struct MultiFaultConfig {
  unsigned min_k = 0, max_k = 0;  // mutants per combination; 0 = single-fault mode
  std::size_t combinations = 20;  // drawn per group ("dl", "traditional") and per k
  bool enabled() const noexcept { return min_k > 0; }
};

struct FaultCombination {
  std::string id;                               // the members' ids, sorted, joined by '+'
  std::vector<const mutate::Mutant*> mutants;   // pointers into the planned span, by id
};

// Up to `config.combinations` distinct combinations per group and per k in
// [min_k, max_k], in that order (dl first, then traditional; k ascending). Members come
// from `mutants` whose id is in `failing_alone`, all of one group (mutant.h is_dl), so a
// combination's group is its members'; no two members' line ranges overlap in one file
// (their edits could not both be placed). Drawn with `seed` (reproducible across standard
// libraries); fewer are returned when the candidates do not allow more (after a bounded
// number of draws). The returned pointers point into `mutants`.
std::vector<FaultCombination> plan_combinations(std::span<const mutate::Mutant> mutants,
                                                const std::set<std::string>& failing_alone,
                                                const MultiFaultConfig& config, std::uint64_t seed);

}  // namespace dlfl::bench
