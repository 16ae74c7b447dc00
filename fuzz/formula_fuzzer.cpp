// Custom formula expressions (`dlfl rank -f 'ef / (ef + ep + 1)'`), parsed and scored
// on counts that include the edge cases (zeros, all failing, all passing).
#include <Eigen/Core>

#include "dlfl/counts.h"
#include "dlfl/formula.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const dlfl::Counts counts = [] {
    Eigen::ArrayXd ef(5), ep(5);
    ef << 0, 3, 0, 1.5, 3;
    ep << 0, 0, 4, 2.25, 4;
    return dlfl::Counts::from(ef, ep, 3, 4);
  }();
  expect_value_or_error([&] {
    const dlfl::Formula f = dlfl::make_formula(text);
    std::size_t undefined = 0;
    const Eigen::ArrayXd scores = f.score(counts, &undefined);
    if (scores.size() != 5 || !scores.isFinite().all()) __builtin_trap();  // documented: sanitized
  });
  return 0;
}
