// What every spectrum reader's harness does with a spectrum it managed to read: what
// `dlfl rank` and `dlfl convert` do with it. A reader that accepts a structure the later
// stages cannot handle (issue #14: a native file whose test ids were out of range
// crashed gather_counts) is caught here, not only crashes inside the reader.
#pragma once

#include <sstream>
#include <vector>

#include "dlfl/coverage.h"
#include "dlfl/formula.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/ranking.h"
#include "dlfl/scoring.h"
#include "dlfl/spectrum.h"

namespace dlfl::fuzz {

inline void exercise_spectrum(const Spectrum& spectrum) {
  static const std::vector<Formula> formulas = {make_formula("ochiai"), make_formula("dstar2")};
  const Scores scores = score_spectrum(spectrum, formulas, {.threads = 1, .block = 64});
  const auto keys = spectrum.tie_break_keys();
  for (const auto& s : scores.per_formula) (void)rank(s, keys, 0, 1);
  const CoverageRows rows(spectrum.coverage());
  for (std::size_t t = 0; t < rows.tests(); ++t) (void)rows.row(t);
  for (std::size_t e = 0; e < spectrum.element_count(); ++e) (void)spectrum.element_name(e);
  std::ostringstream native;
  io::write_native(spectrum, native);
}

}  // namespace dlfl::fuzz
