// Counts: the four numbers every SBFL formula reads, per element, as Eigen arrays.
#pragma once

#include <Eigen/Core>

#include "dlfl/spectrum.h"

namespace dlfl {

// For element e (Abreu et al., TAIC PART 2007; fractional w for flaky tests): ef = Σ w over covering tests, ep = Σ (1 − w) over
// covering tests, nf = F − ef, np = P − ep, where w is a test's failure weight. With
// binary outcomes these are the classic integer counts.
struct Counts {
  Eigen::ArrayXd ef, ep, nf, np;
  double failed = 0.0;  // F = Σ w
  double passed = 0.0;  // P = Σ (1 − w)

  Eigen::Index size() const noexcept { return ef.size(); }
  // Counts from explicit arrays (nf, np derived from F and P); for tests and formulas.
  static Counts from(Eigen::ArrayXd ef, Eigen::ArrayXd ep, double failed, double passed);
};

struct CountsOptions {
  unsigned threads = 0;  // 0 = all hardware threads
};

// Counts of every element. The kernel follows the coverage's storage form: a gather-sum
// of weights over each element's test ids (sparse), or popcounts of its bit words
// against the failed/passed test masks (dense). O(nnz) or O(elements × tests / 64).
// When every weight is a multiple of 1/2^k (k ≤ 7: binary outcomes, flaky 1/4...) the
// sparse kernel sums byte-sized integer weights instead of doubles, about twice as fast
// and giving the same doubles (such sums are exact either way). Threads share the
// sparse kernel by nnz, not by element count. Dense popcounts use the POPCNT
// instruction when the CPU has it (chosen at load time), whatever -march says.
// With binary outcomes, sparse storage and the failing coverage attached
// (Spectrum::failing_coverage(), stored in native files), ef is counted from the failing
// rows alone and ep = row length - ef: the passing tests' ids are never read.
Counts compute_counts(const Spectrum& spectrum, const CountsOptions& options = {});
// Counts of elements [first, last) only (F and P still over all tests).
Counts compute_counts(const Spectrum& spectrum, std::size_t first, std::size_t last,
                      const CountsOptions& options = {});

}  // namespace dlfl
