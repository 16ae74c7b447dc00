// ScoredElements from a spectrum's scores.
#include "dlfl/scored_element.h"

#include <limits>
#include <string>

#include "dlfl/error.h"

namespace dlfl {

std::vector<ScoredElement> scored_elements(const Spectrum& spectrum, const Eigen::ArrayXd& scores) {
  const std::size_t count = spectrum.element_count();
  if (static_cast<std::size_t>(scores.size()) != count) {
    throw Error("scored_elements: " + std::to_string(scores.size()) + " scores for " +
                std::to_string(count) + " elements");
  }
  const Coverage& coverage = spectrum.coverage();

  std::vector<ScoredElement> ranking(count);
  for (std::size_t e = 0; e < count; ++e) {
    const ElementRecord& record = spectrum.element(e);
    ScoredElement& out = ranking[e];
    out.key = spectrum.element_name(e);
    if (record.kind == ElementKind::code) {
      out.file = std::string(spectrum.file(e));
      out.function = std::string(spectrum.function(e));
      out.first_line = record.first_line;
      out.last_line = record.last_line;
    }
    // A never-executed element has no evidence either way; Zou et al. (TSE 2021) put all
    // of them in one last tie rather than trusting whatever the formula made of zeros.
    out.executed = !coverage.tests_of(e).empty();
    out.score = out.executed ? scores[static_cast<Eigen::Index>(e)] : std::numeric_limits<double>::quiet_NaN();
  }
  return ranking;
}

}  // namespace dlfl
