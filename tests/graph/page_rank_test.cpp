// Tests for personalized PageRank against hand-computed values and a direct power
// iteration over the dense Google matrix written here.
#include "dlfl/graph/page_rank.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "dlfl/error.h"

namespace dlfl::graph {
namespace {

WeightedDigraph from_edges(std::size_t n, const std::vector<std::tuple<std::uint32_t, std::uint32_t, double>>& edges) {
  WeightedDigraph g;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (const auto& [from, to, w] : edges)
      if (from == v) {
        g.targets.push_back(to);
        g.weights.push_back(w);
      }
    g.offsets.push_back(g.targets.size());
  }
  return g;
}

// The textbook definition, written independently: G = d·(P + dangling·tᵀ)ᵀ + (1−d)·t·1ᵀ,
// iterated 1000 times from the uniform vector.
Eigen::VectorXd direct_power_iteration(std::size_t n, const std::vector<std::tuple<std::uint32_t, std::uint32_t, double>>& edges,
                                       Eigen::VectorXd teleport, double d) {
  teleport /= teleport.sum();
  Eigen::MatrixXd p = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (const auto& [from, to, w] : edges) p(from, to) += w;
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    const double row = p.row(i).sum();
    if (row == 0) p.row(i) = teleport.transpose();
    else p.row(i) /= row;
  }
  const Eigen::MatrixXd google = d * p.transpose() + (1 - d) * teleport * Eigen::RowVectorXd::Ones(p.rows());
  Eigen::VectorXd x = Eigen::VectorXd::Constant(p.rows(), 1.0 / static_cast<double>(n));
  for (int k = 0; k < 1000; ++k) x = google * x;
  return x;
}

TEST(PageRank, TwoNodesOneEdgeByHand) {
  // A → B, B dangling, uniform teleport, d = .85:
  // x_A = .85·(x_B/2) + .075, x_A + x_B = 1  ⇒  x_A = .5/1.425.
  const auto r = page_rank(from_edges(2, {{0, 1, 1.0}}), Eigen::VectorXd::Zero(2));
  EXPECT_NEAR(r[0], 0.5 / 1.425, 1e-9);
  EXPECT_NEAR(r[1], 1 - 0.5 / 1.425, 1e-9);
}

TEST(PageRank, CycleIsUniform) {
  const auto r = page_rank(from_edges(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}}), Eigen::VectorXd::Zero(3));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r[i], 1.0 / 3, 1e-9);
}

TEST(PageRank, MatchesDirectPowerIterationWithWeightsCyclesAndDanglingNodes) {
  const std::vector<std::tuple<std::uint32_t, std::uint32_t, double>> edges{
      {0, 1, 1.0}, {0, 2, 3.0}, {1, 2, 1.0}, {2, 0, 0.5}, {2, 3, 0.5}, {3, 3, 1.0}, {4, 0, 2.0}, {1, 1, 1.0}};
  // Node 5 is dangling; the teleport favours node 4.
  Eigen::VectorXd teleport(6);
  teleport << 1, 0, 0, 0, 3, 1;
  const auto expected = direct_power_iteration(6, edges, teleport, 0.85);
  const auto got = page_rank(from_edges(6, edges), teleport, {.damping = 0.85, .tolerance = 1e-14, .max_iterations = 1000});
  ASSERT_EQ(got.size(), 6);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(got[i], expected[i], 1e-10) << "node " << i;
  EXPECT_NEAR(got.sum(), 1.0, 1e-12);
}

TEST(PageRank, EmptyGraphAndBadInput) {
  EXPECT_EQ(page_rank(WeightedDigraph{}, Eigen::VectorXd()).size(), 0);
  EXPECT_THROW(page_rank(from_edges(2, {}), Eigen::VectorXd::Zero(3)), Error);
  EXPECT_THROW(page_rank(from_edges(2, {{0, 1, -1.0}}), Eigen::VectorXd::Zero(2)), Error);
}

}  // namespace
}  // namespace dlfl::graph
