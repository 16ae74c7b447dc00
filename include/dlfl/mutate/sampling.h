// Stratified, seeded sampling of mutants: the same seed always picks the same mutants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dlfl/mutate/mutant.h"

namespace dlfl::mutate {

// At most `max` mutants of `all` (0 = all of them), spread over the operators: each
// operator's mutants are shuffled with `seed` (a Fisher-Yates shuffle over the
// standardised mt19937_64 stream, so results agree across standard libraries), then
// operators take turns in catalog order, one mutant per turn, until `max` are taken.
// The result keeps the order of `all`.
std::vector<Mutant> stratified_sample(const std::vector<Mutant>& all, std::size_t max, std::uint64_t seed);

}  // namespace dlfl::mutate
