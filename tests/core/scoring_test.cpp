// Tests for score_spectrum: block-wise, threaded scoring equals scoring the whole counts.
#include "dlfl/scoring.h"

#include <gtest/gtest.h>

#include "dlfl/counts.h"
#include "test_spectra.h"

namespace dlfl {
namespace {

TEST(Scoring, BlocksAndThreadsGiveTheWholeSpectrumScores) {
  const Spectrum s = testing::random_spectrum(3000, 60, 0.05, 21);
  const std::vector<Formula> formulas{make_formula("ochiai"), make_formula("dstar2"), make_formula("ef / ep")};
  const Counts counts = compute_counts(s);
  for (const std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{1} << 13})
    for (const unsigned threads : {1u, 2u, 3u}) {
      const Scores got = score_spectrum(s, formulas, {.threads = threads, .block = block});
      ASSERT_EQ(got.per_formula.size(), formulas.size());
      for (std::size_t f = 0; f < formulas.size(); ++f) {
        std::size_t nan = 0;
        const Eigen::ArrayXd expected = formulas[f].score(counts, &nan);
        ASSERT_EQ(got.per_formula[f].size(), expected.size());
        EXPECT_TRUE((got.per_formula[f] == expected).all()) << formulas[f].name() << " block " << block;
        EXPECT_EQ(got.undefined[f], nan) << formulas[f].name();
      }
    }
}

TEST(Scoring, EmptySpectrum) {
  const Scores got = score_spectrum(SpectrumBuilder().finish(), std::vector<Formula>{make_formula("ochiai")});
  ASSERT_EQ(got.per_formula.size(), 1u);
  EXPECT_EQ(got.per_formula[0].size(), 0);
}

}  // namespace
}  // namespace dlfl
