// Mutation-based fault localization (MBFL) from a kill matrix: Metallaxis-FL, MUSE and the
// hybrid that keeps the SBFL order and breaks its ties by Metallaxis.
//
// A kill matrix is a Spectrum whose elements are mutants (file and line of the mutated
// code; see collect/mutant_runner.h) and whose tests keep their outcome on the original
// program; "mutant m covers test t" means that t's outcome changed when m was active
// (killed). So the usual counts read: ef = failing tests that kill m, ep = passing tests
// that kill m.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "dlfl/formula.h"
#include "dlfl/spectrum.h"

namespace dlfl {

enum class MutationTechnique {
  metallaxis,  // per line, the best score of its mutants (Papadakis and Le Traon, STVR 2015)
  muse,        // Moon et al., ICST 2014
  hybrid,      // SBFL order, ties broken by Metallaxis
};

// "metallaxis", "muse", "hybrid" (exact, lower case); nullopt otherwise.
std::optional<MutationTechnique> parse_mutation_technique(std::string_view name) noexcept;
std::string_view mutation_technique_name(MutationTechnique technique) noexcept;

// The score of a line that no mutant of the kill matrix sits on: below every score, so
// such lines rank last (they are not "undefined": nothing was measured there).
inline constexpr double kUnmeasuredScore = -kInfiniteScore;

// For each mutant (element) of `kills`, the elements of `lines` it sits on: the code
// elements of the same file whose [first_line, last_line] holds the mutant's first line.
// Extrinsic elements never match. Cost: O(lines + mutants × elements of the file).
std::vector<std::vector<std::uint32_t>> lines_of_mutants(const Spectrum& lines, const Spectrum& kills);

// Metallaxis-FL: per element of `lines`, the maximum over the mutants on it of `formula`
// applied to the mutant's kill counts; kUnmeasuredScore where no mutant sits.
Eigen::ArrayXd metallaxis_scores(const Spectrum& lines, const Spectrum& kills, const Formula& formula);

// MUSE (Moon et al., ICST 2014, Eq. 2 with its α): per line s with mutants mut(s),
//   (1 / (|mut(s)| + 1)) Σ_m ( ef_m / (f2p + 1) − α ep_m / (p2f + 1) ),
//   α = (f2p / (M F)) · (M P / p2f) = f2p P / (F p2f)   (0 when F = 0 or p2f = 0),
// where f2p = Σ ef_m and p2f = Σ ep_m over all M mutants, F and P the kill matrix's
// failing and passing weights. A failing test "changed to pass" is read as a failing
// test that kills the mutant (its outcome changed), as in the kill matrix. Lines without
// mutants score kUnmeasuredScore.
Eigen::ArrayXd muse_scores(const Spectrum& lines, const Spectrum& kills);

// The hybrid: ordinal scores (larger = more suspicious) ordering the elements by `sbfl`
// descending, then, within equal SBFL scores, by `mbfl` descending. Elements equal in
// both stay tied (equal scores). Both arrays must have the same size (dlfl::Error
// otherwise).
Eigen::ArrayXd hybrid_scores(const Eigen::ArrayXd& sbfl, const Eigen::ArrayXd& mbfl);

}  // namespace dlfl
