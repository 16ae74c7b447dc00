// The per-spectrum preparation of compute_counts, done once for callers that count many
// blocks of one spectrum (score_spectrum). Internal to dlfl_core.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dlfl/counts.h"

namespace dlfl::detail {

// The failure weights as small integers, w = code / scale, when every weight is a
// multiple of 1/scale for a power of two scale ≤ 128 (binary outcomes: scale 1; flaky
// 1/4, 3/4: scale 4). A byte table of 10k tests stays in L1, where the doubles do not,
// and integer sums are exact, so ef = Σ code / scale is the very double the float sum
// gives (every partial sum of such weights is exact below 2^53).
struct WeightCodes {
  std::vector<std::uint8_t> code;
  double scale = 0;  // 0 = the weights are not all such multiples
};
WeightCodes weight_codes(const std::vector<double>& weights);

// Failed/passed bit masks over the tests, and the flaky tests, for the dense kernel.
struct TestMasks {
  struct Flaky {
    std::size_t word;
    std::uint64_t bit;
    double weight;
  };
  std::vector<std::uint64_t> failed, passed;
  std::vector<Flaky> flaky;
};

class CountsKernel {
 public:
  // Keeps a reference to `spectrum`, which must outlive the kernel. `threads` share the
  // preparation (counting the failing rows) on large spectra.
  explicit CountsKernel(const Spectrum& spectrum, unsigned threads = 1);
  // compute_counts(spectrum, first, last, options).
  Counts operator()(std::size_t first, std::size_t last, const CountsOptions& options) const;

 private:
  const Spectrum& spectrum_;
  double failed_, passed_;
  std::vector<double> weights_;
  WeightCodes codes_;  // sparse form
  TestMasks masks_;    // dense form
  // Sparse form, binary outcomes, failing coverage attached: ef of every element, counted
  // from the failing rows alone; ep is then the row length minus ef.
  std::unique_ptr<std::uint32_t[]> failing_hits_;
  bool from_failing_rows_ = false;
};

}  // namespace dlfl::detail
