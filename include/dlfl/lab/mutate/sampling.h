// Stratified, seeded sampling of mutants: the same seed always picks the same mutants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "dlfl/lab/mutate/mutant.h"

namespace dlfl::mutate {

// At most `max` mutants of `all` (0 = all of them), spread over the operators: each
// operator's mutants are shuffled with `seed` (a Fisher-Yates shuffle over the
// standardised mt19937_64 stream, so results agree across standard libraries), then
// operators take turns in catalog order, one mutant per turn, until `max` are taken.
// The result keeps the order of `all`.
// Uniform in [0, bound) (bound > 0) by rejection over mt19937_64's raw output:
// std::uniform_int_distribution is not specified exactly, so this is what keeps seeded
// samples the same across standard libraries.
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound);

std::vector<Mutant> stratified_sample(const std::vector<Mutant>& all, std::size_t max, std::uint64_t seed);

}  // namespace dlfl::mutate
