// ScoredElement: one element of a ranking under evaluation, whether dlfl scored it or a
// ranking file named it (io/ranking_reader.h reads them, eval/metrics.h scores them).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl {

// Owns its strings so that rankings read from files (GZoltar, other tools) and rankings
// dlfl computed itself reach the metrics in one shape. Order does not matter: metrics
// sort by score.
struct ScoredElement {
  std::string key;               // display name, e.g. `file#function:line`; for reports only
  std::string file;              // source path as the ranking spells it (relative or absolute,
                                 // `/` or `\`); empty for extrinsic elements, which match no fault
  std::string function;          // enclosing function; empty = unknown
  std::uint32_t first_line = 0;  // 1-based; 0 = no line information
  std::uint32_t last_line = 0;   // inclusive; 0 = same as first_line
  // Suspiciousness, higher = inspected earlier. NaN = unscored (e.g. never covered):
  // all unscored elements form one last tie (Zou et al., TSE 2021).
  double score = 0.0;
  // Whether some test executed it. A ranking file without that information (no ef/ep)
  // leaves it true; dlfl's own spectra know it (an unexecuted element is also unscored).
  bool executed = true;

  std::uint32_t end_line() const noexcept { return last_line ? last_line : first_line; }
  // A whole file: neither function nor lines (what file-level rankings hold).
  bool is_whole_file() const noexcept { return function.empty() && first_line == 0; }
};

// One ScoredElement per spectrum element, scores[e] for element e, except that elements
// no test covers get NaN (they are unscored, whatever the formula returned for them).
// Throws dlfl::Error when scores.size() != spectrum.element_count().
std::vector<ScoredElement> scored_elements(const Spectrum& spectrum, const Eigen::ArrayXd& scores);

}  // namespace dlfl
