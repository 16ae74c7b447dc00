// Tests for FailingCoverage and the counts that read the failing rows only: the same
// counts as the full gather on random spectra, and which spectra take that path.
#include "dlfl/failing_coverage.h"

#include <gtest/gtest.h>

#include "dlfl/counts.h"
#include "dlfl/error.h"
#include "dlfl/formula.h"
#include "dlfl/scoring.h"
#include "test_spectra.h"

namespace dlfl {
namespace {

using testing::random_spectrum;

// The same spectrum stored sparse (small random spectra are stored dense, the smaller
// form below 64 tests; the failing rows serve the sparse form).
Spectrum as_sparse(const Spectrum& s) {
  return Spectrum(s.strings(), std::vector<ElementRecord>(s.elements().begin(), s.elements().end()), s.tests(),
                  s.coverage().to_sparse());
}

Spectrum with_failing_rows(const Spectrum& s) {
  Spectrum copy = as_sparse(s);
  copy.attach_failing_coverage(FailingCoverage::of(s.coverage(), s.failing_test_ids()));
  return copy;
}

TEST(FailingCoverage, RowsAreTheFailingTestsCoverage) {
  const Spectrum s = random_spectrum(50, 40, 0.2, 7, /*flaky=*/false);
  const auto failing = s.failing_test_ids();
  ASSERT_FALSE(failing.empty());
  const FailingCoverage f = FailingCoverage::of(s.coverage(), failing);
  ASSERT_EQ(f.size(), failing.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    std::vector<std::uint32_t> expected;
    for (std::uint32_t e = 0; e < s.element_count(); ++e)
      if (s.coverage().covers(failing[i], e)) expected.push_back(e);
    EXPECT_EQ(std::vector<std::uint32_t>(f.row(i).begin(), f.row(i).end()), expected) << "failing test " << i;
  }
  // The dense form gives the same rows.
  const FailingCoverage d = FailingCoverage::of(s.coverage().to_dense(), failing);
  EXPECT_TRUE(std::equal(d.elements().begin(), d.elements().end(), f.elements().begin(), f.elements().end()));
}

// The counts from the failing rows equal the full gather, element by element, on random
// spectra of several shapes (sparse: the fast path applies to sparse storage).
TEST(FailingCoverage, CountsMatchTheFullPathOnRandomSpectra) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const std::size_t elements = 20 + seed * 37, tests = 5 + seed * 11;
    const Spectrum s = random_spectrum(elements, tests, 0.004 * seed + 0.01, seed, /*flaky=*/false);
    ASSERT_TRUE(s.binary_outcomes());
    const Spectrum fast = with_failing_rows(s);
    for (unsigned threads : {1u, 2u}) {
      const Counts a = compute_counts(s, {.threads = threads});
      const Counts b = compute_counts(fast, {.threads = threads});
      EXPECT_TRUE((a.ef == b.ef).all()) << "seed " << seed;
      EXPECT_TRUE((a.ep == b.ep).all()) << "seed " << seed;
      EXPECT_TRUE((a.nf == b.nf).all() && (a.np == b.np).all()) << "seed " << seed;
      // A block in the middle, as score_spectrum asks for them.
      const Counts c = compute_counts(s, elements / 3, elements / 2, {.threads = threads});
      const Counts d = compute_counts(fast, elements / 3, elements / 2, {.threads = threads});
      EXPECT_TRUE((c.ef == d.ef).all() && (c.ep == d.ep).all()) << "seed " << seed;
    }
    const std::vector<Formula> formulas{make_formula("ochiai"), make_formula("dstar2")};
    const Scores x = score_spectrum(s, formulas), y = score_spectrum(fast, formulas);
    for (std::size_t f = 0; f < formulas.size(); ++f)
      EXPECT_TRUE((x.per_formula[f] == y.per_formula[f]).all()) << "seed " << seed;
  }
}

// The failing rows are used only when they can be: a spectrum whose rows were tampered
// with shows which path ran (binary: the rows; flaky outcomes: the full gather).
TEST(FailingCoverage, UsedOnlyWithBinaryOutcomes) {
  SpectrumBuilder b;
  for (std::uint32_t i = 1; i <= 3; ++i) b.add_element("a.cpp", i);
  b.add_test(TestCase::fail("f"), {0, 1});
  b.add_test(TestCase::pass("p"), {0, 2});
  Spectrum s = as_sparse(std::move(b).finish());
  // Rows that claim test 0 covers element 2 only (inconsistent on purpose).
  s.attach_failing_coverage(FailingCoverage(2, 3, std::vector<std::uint32_t>{0}, std::vector<std::uint64_t>{0, 1},
                                            std::vector<std::uint32_t>{2}));
  const Counts rows = compute_counts(s);
  EXPECT_EQ(rows.ef(0), 0.0);
  EXPECT_EQ(rows.ef(2), 1.0);
  EXPECT_EQ(rows.ep(2), 0.0);  // row length 1 - ef 1

  SpectrumBuilder fb;
  for (std::uint32_t i = 1; i <= 3; ++i) fb.add_element("a.cpp", i);
  fb.add_test(TestCase::flaky("f", 1, 2), {0, 1});
  fb.add_test(TestCase::pass("p"), {0, 2});
  Spectrum flaky = as_sparse(std::move(fb).finish());
  flaky.attach_failing_coverage(FailingCoverage(2, 3, std::vector<std::uint32_t>{0},
                                                std::vector<std::uint64_t>{0, 1}, std::vector<std::uint32_t>{2}));
  const Counts full = compute_counts(flaky);
  EXPECT_EQ(full.ef(0), 0.5);
  EXPECT_EQ(full.ef(2), 0.0);
}

TEST(FailingCoverage, AttachRefusesRowsOfOtherTests) {
  Spectrum s = random_spectrum(10, 10, 0.3, 3, /*flaky=*/false);
  auto failing = s.failing_test_ids();
  ASSERT_FALSE(failing.empty());
  failing.pop_back();
  EXPECT_THROW(s.attach_failing_coverage(FailingCoverage::of(s.coverage(), failing)), Error);
}

TEST(FailingCoverage, ValidatesItsStructure) {
  using V32 = std::vector<std::uint32_t>;
  using V64 = std::vector<std::uint64_t>;
  EXPECT_THROW(FailingCoverage(2, 3, V32{5}, V64{0, 1}, V32{0}), Error);        // test out of range
  EXPECT_THROW(FailingCoverage(2, 3, V32{1, 0}, V64{0, 0, 0}, V32{}), Error);   // tests out of order
  EXPECT_THROW(FailingCoverage(2, 3, V32{0}, V64{0, 2}, V32{0}), Error);        // offsets past the end
  EXPECT_THROW(FailingCoverage(2, 3, V32{0}, V64{0, 1}, V32{3}), Error);        // element out of range
  EXPECT_THROW(FailingCoverage(2, 3, V32{0}, V64{0, 2}, V32{1, 1}), Error);     // duplicate element
  EXPECT_NO_THROW(FailingCoverage(2, 3, V32{0, 1}, V64{0, 2, 2}, V32{0, 2}));
}

}  // namespace
}  // namespace dlfl
