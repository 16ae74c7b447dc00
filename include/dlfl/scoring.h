// Scoring: every element of a spectrum scored by one or more formulas, block by block.
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

#include "dlfl/formula.h"
#include "dlfl/spectrum.h"

namespace dlfl {

struct ScoringOptions {
  unsigned threads = 0;             // 0 = all hardware threads; blocks are shared out
  std::size_t block = 1u << 13;     // elements per block of counts (~0.3 MB of arrays)
};

struct Scores {
  std::vector<Eigen::ArrayXd> per_formula;  // one array per formula, element order
  std::vector<std::size_t> undefined;       // per formula: NaN scores (ranked last)
};

// Counts are computed for one block of elements at a time and scored at once, so the
// only full-size arrays are the scores: memory stays near the coverage's own size.
Scores score_spectrum(const Spectrum& spectrum, std::span<const Formula> formulas,
                      const ScoringOptions& options = {});

}  // namespace dlfl
