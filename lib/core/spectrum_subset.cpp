// Restricting a spectrum to some elements and tests (include/dlfl/spectrum_subset.h).
#include "dlfl/spectrum_subset.h"

#include <limits>
#include <vector>

namespace dlfl {

Spectrum subset(const Spectrum& s, const std::function<bool(std::size_t)>& keep_element,
                const std::function<bool(std::size_t)>& keep_test) {
  constexpr std::uint32_t kDropped = std::numeric_limits<std::uint32_t>::max();
  SpectrumBuilder b;
  std::vector<std::uint32_t> new_id(s.element_count(), kDropped);
  for (std::size_t e = 0; e < s.element_count(); ++e) {
    if (keep_element && !keep_element(e)) continue;
    new_id[e] = b.add_copy(s, e);
  }
  const CoverageRows rows(s.coverage());
  std::vector<std::uint32_t> covered;
  for (std::size_t t = 0; t < s.test_count(); ++t) {
    if (keep_test && !keep_test(t)) continue;
    covered.clear();
    for (const std::uint32_t e : rows.row(t))
      if (new_id[e] != kDropped) covered.push_back(new_id[e]);
    b.add_test(s.tests()[t], covered);
  }
  return std::move(b).finish();
}

}  // namespace dlfl
