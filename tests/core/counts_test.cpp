// Tests for compute_counts: every kernel agrees with Eigen's sparse product Aᵀw.
#include "dlfl/counts.h"

#include <Eigen/SparseCore>
#include <gtest/gtest.h>

#include <random>

#include "counts_kernel.h"
#include "test_spectra.h"

namespace dlfl {
namespace {

TEST(Counts, IntegerCountsOfASmallSpectrum) {
  const Spectrum s = testing::spectrum_with_counts({2, 0, 1}, {1, 3, 0}, 2, 3);
  const Counts c = compute_counts(s);
  EXPECT_DOUBLE_EQ(c.failed, 2);
  EXPECT_DOUBLE_EQ(c.passed, 3);
  EXPECT_EQ(c.ef[0], 2);
  EXPECT_EQ(c.ep[0], 1);
  EXPECT_EQ(c.nf[0], 0);
  EXPECT_EQ(c.np[0], 2);
  EXPECT_EQ(c.ef[1], 0);
  EXPECT_EQ(c.nf[1], 2);
  EXPECT_EQ(c.np[1], 0);
  EXPECT_EQ(c.ef[2], 1);
  EXPECT_EQ(c.ep[2], 0);
}

TEST(Counts, FlakyTestsCountFractionally) {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  b.add_element("a.cpp", 2);
  b.add_test(TestCase::flaky("sometimes", 1, 4), {0});
  b.add_test(TestCase::fail("always"), {0, 1});
  const Counts c = compute_counts(std::move(b).finish());
  EXPECT_DOUBLE_EQ(c.ef[0], 1.25);
  EXPECT_DOUBLE_EQ(c.ep[0], 0.75);
  EXPECT_DOUBLE_EQ(c.ef[1], 1.0);
  EXPECT_DOUBLE_EQ(c.nf[1], 0.25);
  EXPECT_DOUBLE_EQ(c.np[1], 0.75);
  EXPECT_DOUBLE_EQ(c.failed, 1.25);
  EXPECT_DOUBLE_EQ(c.passed, 0.75);
}

TEST(Counts, EmptySpectrum) {
  const Counts c = compute_counts(SpectrumBuilder().finish());
  EXPECT_EQ(c.size(), 0);
  EXPECT_EQ(c.failed, 0.0);
}

// The reference: ef = Aᵀw, ep = Aᵀ(1 − w) with Eigen's own sparse matrix product.
Counts reference_counts(const Spectrum& s) {
  std::vector<Eigen::Triplet<double>> triplets;
  const CoverageRows rows(s.coverage());  // test-major, through the transpose
  for (std::size_t t = 0; t < s.test_count(); ++t)
    for (auto e : rows.row(t)) triplets.emplace_back(static_cast<int>(t), static_cast<int>(e), 1.0);
  Eigen::SparseMatrix<double> a(static_cast<Eigen::Index>(s.test_count()),
                                static_cast<Eigen::Index>(s.element_count()));
  a.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::VectorXd w(static_cast<Eigen::Index>(s.test_count()));
  for (std::size_t t = 0; t < s.test_count(); ++t) w[static_cast<Eigen::Index>(t)] = s.tests()[t].failure_weight;
  const Eigen::VectorXd ef = a.transpose() * w;
  const Eigen::VectorXd ep = a.transpose() * (Eigen::VectorXd::Ones(w.size()) - w);
  return Counts::from(ef.array(), ep.array(), w.sum(), static_cast<double>(w.size()) - w.sum());
}

// The same spectrum in the other storage form.
Spectrum with_coverage(const Spectrum& s, Coverage coverage) {
  return Spectrum(s.strings(), std::vector<ElementRecord>(s.elements().begin(), s.elements().end()), s.tests(),
                  std::move(coverage));
}

class CountsKernels : public ::testing::TestWithParam<std::tuple<bool, unsigned, double>> {};

TEST_P(CountsKernels, AgreeWithEigenSparseProduct) {
  const auto [dense, threads, density] = GetParam();
  const Spectrum built = testing::random_spectrum(300, 150, density, 42);
  const Spectrum s = with_coverage(built, dense ? built.coverage().to_dense() : built.coverage().to_sparse());
  ASSERT_EQ(s.coverage().is_dense(), dense);
  const Counts expected = reference_counts(s);
  const Counts got = compute_counts(s, {threads});
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_LT((got.ef - expected.ef).abs().maxCoeff(), 1e-9);
  EXPECT_LT((got.ep - expected.ep).abs().maxCoeff(), 1e-9);
  EXPECT_LT((got.nf - expected.nf).abs().maxCoeff(), 1e-9);
  EXPECT_LT((got.np - expected.np).abs().maxCoeff(), 1e-9);
  EXPECT_NEAR(got.failed, expected.failed, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(BothForms, CountsKernels,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(1u, 2u),
                                            ::testing::Values(0.01, 0.3)));

TEST(Counts, BuilderPicksTheSmallerForm) {
  EXPECT_FALSE(testing::random_spectrum(300, 150, 0.01, 1).coverage().is_dense());
  EXPECT_TRUE(testing::random_spectrum(300, 150, 0.3, 1).coverage().is_dense());
}

TEST(Counts, ThreadedKernelsAgreeOnALargeSpectrum) {
  // Large enough that both kernels really split the work across threads.
  const Spectrum s = testing::random_spectrum(20000, 120, 0.5, 7);
  const Spectrum sparse = with_coverage(s, s.coverage().to_sparse());
  const Counts one = compute_counts(sparse, {1});
  const Counts two = compute_counts(sparse, {2});
  const Counts dense = compute_counts(s, {2});
  EXPECT_LT((one.ef - two.ef).abs().maxCoeff(), 1e-9);
  EXPECT_LT((one.ep - dense.ep).abs().maxCoeff(), 1e-9);
  EXPECT_LT((one.ef - dense.ef).abs().maxCoeff(), 1e-9);
}

TEST(Counts, ARangeOfElementsMatchesTheWhole) {
  const Spectrum s = testing::random_spectrum(500, 80, 0.1, 3);
  const Counts all = compute_counts(s);
  const Counts part = compute_counts(s, 100, 250);
  ASSERT_EQ(part.size(), 150);
  EXPECT_TRUE((part.ef == all.ef.segment(100, 150)).all());
  EXPECT_TRUE((part.np == all.np.segment(100, 150)).all());
  EXPECT_EQ(compute_counts(s, 490, 9999).size(), 10);
}

// Weights that are multiples of 1/2^k are summed as bytes; the result must be the very
// doubles of the float sum (every such sum is exact), so compare with ==.
TEST(Counts, ByteWeightKernelGivesTheExactSums) {
  for (const std::uint32_t runs : {4u, 8u, 128u}) {
    const Spectrum s = testing::random_spectrum(400, 300, 0.2, 11, true, runs);
    const Spectrum sparse = with_coverage(s, s.coverage().to_sparse());
    std::vector<double> w;
    for (const auto& t : s.tests()) w.push_back(t.failure_weight);
    ASSERT_GT(detail::weight_codes(w).scale, 0) << runs;
    const Counts expected = reference_counts(sparse);
    const Counts got = compute_counts(sparse, {1});
    EXPECT_TRUE((got.ef == expected.ef).all()) << runs;
    EXPECT_TRUE((got.ep == expected.ep).all()) << runs;
  }
}

TEST(Counts, WeightCodesOnlyForDyadicWeights) {
  EXPECT_EQ(detail::weight_codes({0.0, 1.0, 1.0}).scale, 1.0);
  const auto quarters = detail::weight_codes({0.0, 0.25, 0.75, 1.0});
  EXPECT_EQ(quarters.scale, 4.0);
  EXPECT_EQ(quarters.code, (std::vector<std::uint8_t>{0, 1, 3, 4}));
  EXPECT_EQ(detail::weight_codes({1.0 / 128}).scale, 128.0);
  EXPECT_EQ(detail::weight_codes({1.0 / 256}).scale, 0.0);
  EXPECT_EQ(detail::weight_codes({1.0 / 3}).scale, 0.0);
}

// Weights like 1/3 take the double kernel.
TEST(Counts, NonDyadicWeightsAgreeWithTheReference) {
  const Spectrum s = testing::random_spectrum(400, 300, 0.2, 12, true, 3);
  const Spectrum sparse = with_coverage(s, s.coverage().to_sparse());
  std::vector<double> w;
  for (const auto& t : s.tests()) w.push_back(t.failure_weight);
  ASSERT_EQ(detail::weight_codes(w).scale, 0.0);
  const Counts expected = reference_counts(sparse);
  for (unsigned threads : {1u, 2u}) {
    const Counts got = compute_counts(sparse, {threads});
    EXPECT_LT((got.ef - expected.ef).abs().maxCoeff(), 1e-9);
    EXPECT_LT((got.np - expected.np).abs().maxCoeff(), 1e-9);
  }
}

// Threads share the sparse kernel by nnz: a few elements covered by every test (setup
// code) and many by almost none must still give every element its own counts.
TEST(Counts, SkewedCoverageSplitByNnzAgrees) {
  SpectrumBuilder b;
  const std::size_t elements = 5000, tests = 400;
  for (std::size_t i = 0; i < elements; ++i) b.add_element("s.cpp", static_cast<std::uint32_t>(i + 1));
  std::mt19937 rng(2);
  for (std::size_t t = 0; t < tests; ++t) {
    std::vector<std::uint32_t> covered;
    for (std::uint32_t e = 0; e < 700; ++e) covered.push_back(e);  // ~all of the nnz
    for (std::uint32_t e = 700; e < elements; ++e)
      if (rng() % 100 == 0) covered.push_back(e);
    b.add_test(t % 5 ? TestCase::pass("p" + std::to_string(t)) : TestCase::fail("f" + std::to_string(t)), covered);
  }
  const Spectrum built = std::move(b).finish();
  const Spectrum s = with_coverage(built, built.coverage().to_sparse());
  ASSERT_GT(s.coverage().nnz(), std::size_t{1} << 18);  // large enough to use threads
  const Counts expected = reference_counts(s);
  for (unsigned threads : {1u, 2u, 3u}) {
    const Counts got = compute_counts(s, {threads});
    EXPECT_TRUE((got.ef == expected.ef).all()) << threads;
    EXPECT_TRUE((got.ep == expected.ep).all()) << threads;
  }
}

}  // namespace
}  // namespace dlfl
