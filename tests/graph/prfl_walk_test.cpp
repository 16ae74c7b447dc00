// PRFL's walk is computed on the function-test incidence (prfl_walk.cpp), not on an
// explicit graph: these tests build the explicit walk graph as the technique defines it,
// run the generic page_rank() over it, and require propagate()'s PRFL function scores to
// be the very same doubles, for dense and sparse unions, flaky tests, dangling nodes,
// mutual calls, and a spectrum large enough for the two-thread path.
#include <gtest/gtest.h>

#include <random>

#include "dlfl/counts.h"
#include "dlfl/graph/page_rank.h"
#include "dlfl/graph/propagation.h"
#include "prfl_walk.h"

namespace dlfl::graph {
namespace {

// The PRFL walk of one side as an explicit graph (propagation.h's definition).
Eigen::ArrayXd reference_weights(const FunctionGraph& g, bool failing_side, const PropagationOptions& o) {
  const Spectrum& functions = g.functions.spectrum;
  const auto& tests = functions.tests();
  const std::size_t n = g.size();
  const auto side = [&](std::size_t t) {
    const double w = tests[t].failure_weight;
    return failing_side ? w : 1.0 - w;
  };
  std::vector<std::uint32_t> node_of_test(tests.size(), 0);
  std::vector<double> teleport;
  for (std::size_t t = 0; t < tests.size(); ++t)
    if (side(t) > 0) {
      node_of_test[t] = static_cast<std::uint32_t>(n + teleport.size());
      teleport.push_back(side(t));
    }
  if (teleport.empty()) return Eigen::ArrayXd::Ones(static_cast<Eigen::Index>(n));
  std::vector<std::vector<std::uint32_t>> functions_of_test(teleport.size());
  WeightedDigraph walk;
  std::vector<bool> runs(n, false);
  for (std::size_t f = 0; f < n; ++f) {
    const auto start = walk.targets.size();
    for (const std::uint32_t t : functions.coverage().tests_of(f)) {
      if (side(t) <= 0) continue;
      walk.targets.push_back(node_of_test[t]);
      functions_of_test[node_of_test[t] - n].push_back(static_cast<std::uint32_t>(f));
      runs[f] = true;
    }
    const auto covering = walk.targets.size() - start;
    const auto calls = (g.callee_offsets[f + 1] - g.callee_offsets[f]) + (g.caller_offsets[f + 1] - g.caller_offsets[f]);
    const double test_share = calls == 0 ? 1.0 : 1.0 - o.call_share;
    const double call_share = covering == 0 ? 1.0 : o.call_share;
    walk.weights.insert(walk.weights.end(), covering, test_share / static_cast<double>(covering ? covering : 1));
    for (auto k = g.callee_offsets[f]; k < g.callee_offsets[f + 1]; ++k) walk.targets.push_back(g.callees[k]);
    for (auto k = g.caller_offsets[f]; k < g.caller_offsets[f + 1]; ++k) walk.targets.push_back(g.callers[k]);
    walk.weights.insert(walk.weights.end(), calls, call_share / static_cast<double>(calls ? calls : 1));
    walk.offsets.push_back(walk.targets.size());
  }
  for (const auto& list : functions_of_test) {
    walk.targets.insert(walk.targets.end(), list.begin(), list.end());
    walk.weights.insert(walk.weights.end(), list.size(), 1.0);
    walk.offsets.push_back(walk.targets.size());
  }
  Eigen::VectorXd start = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n + teleport.size()));
  for (std::size_t i = 0; i < teleport.size(); ++i) start[static_cast<Eigen::Index>(n + i)] = teleport[i];
  const Eigen::VectorXd rank = page_rank(walk, start, {.damping = o.damping});
  double sum = 0;
  std::size_t run = 0;
  for (std::size_t f = 0; f < n; ++f)
    if (runs[f]) sum += rank[static_cast<Eigen::Index>(f)], ++run;
  if (sum <= 0) return Eigen::ArrayXd::Ones(static_cast<Eigen::Index>(n));
  Eigen::ArrayXd w(static_cast<Eigen::Index>(n));
  for (std::size_t f = 0; f < n; ++f) w[static_cast<Eigen::Index>(f)] = rank[static_cast<Eigen::Index>(f)] / (sum / static_cast<double>(run));
  return w;
}

// `functions` one-line functions, `lines` lines each, `tests` tests covering each line
// with probability `density`; every 7th test fails, every 11th is flaky (1/4); the last
// function is run by no test, the last test runs nothing; random calls, some mutual.
Spectrum random_program(std::size_t functions, std::size_t lines, std::size_t tests, double density, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution covers(density);
  SpectrumBuilder b;
  for (std::size_t f = 0; f < functions; ++f)
    for (std::size_t l = 0; l < lines; ++l)
      b.add_element("a.cpp", static_cast<std::uint32_t>(f * lines + l + 1), 0, "fn" + std::to_string(f));
  for (std::size_t t = 0; t < tests; ++t) {
    std::vector<std::uint32_t> covered;
    for (std::size_t e = 0; e + lines < functions * lines && t + 1 < tests; ++e)
      if (covers(rng)) covered.push_back(static_cast<std::uint32_t>(e));
    const std::string name = "t" + std::to_string(t);
    TestCase test = t % 7 == 0 ? TestCase::fail(name) : t % 11 == 0 ? TestCase::flaky(name, 1, 4) : TestCase::pass(name);
    b.add_test(std::move(test), covered);
  }
  return std::move(b).finish();
}

CallGraph random_calls(std::size_t functions, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> any(0, functions - 1);
  CallGraph g;
  for (std::size_t f = 0; f < functions; ++f) g.add_function("fn" + std::to_string(f));
  for (std::size_t k = 0; k < functions * 2; ++k) {
    const auto a = any(rng), b = any(rng);
    g.add_call(a, b, CallKind::direct);
    if (k % 5 == 0) g.add_call(b, a, CallKind::direct);  // mutual: b is a's callee and caller
  }
  return g;
}

void expect_reference_scores(const Spectrum& s, const FunctionGraph& g) {
  const Formula ochiai = make_formula("ochiai");
  const PropagationOptions o;
  const PropagatedScores p = propagate(s, g, ochiai, Propagation::prfl);
  Counts c = compute_counts(g.functions.spectrum);
  const Eigen::ArrayXd wf = reference_weights(g, true, o), wp = reference_weights(g, false, o);
  c.ef *= wf;
  c.ep *= wp;
  const Eigen::ArrayXd expected = ochiai.score(c);
  ASSERT_EQ(p.functions.size(), expected.size());
  for (Eigen::Index f = 0; f < expected.size(); ++f) EXPECT_EQ(p.functions[f], expected[f]) << "function " << f;
}

TEST(PrflWalk, SameDoublesAsPageRankOnTheExplicitGraphDense) {
  const Spectrum s = random_program(40, 3, 120, 0.3, 1);
  const FunctionGraph g = join_functions(s, random_calls(40, 2));
  ASSERT_TRUE(g.functions.spectrum.coverage().is_dense());
  expect_reference_scores(s, g);
}

TEST(PrflWalk, SameDoublesAsPageRankOnTheExplicitGraphSparse) {
  const Spectrum s = random_program(60, 2, 400, 0.004, 3);
  const FunctionGraph g = join_functions(s, random_calls(60, 4));
  ASSERT_FALSE(g.functions.spectrum.coverage().is_dense());
  expect_reference_scores(s, g);
}

TEST(PrflWalk, SameDoublesOnTwoThreadsWithAndWithoutTheVectorKernel) {
  // 2^20 function-test pairs and more: the walk splits its targets between two threads.
  const Spectrum s = random_program(300, 1, 8000, 0.6, 5);
  const FunctionGraph g = join_functions(s, random_calls(300, 6));
  expect_reference_scores(s, g);
  detail::use_vector_push(false);
  expect_reference_scores(s, g);
  detail::use_vector_push(true);
}

TEST(PrflWalk, ScalarKernelOnSmallGraphs) {
  detail::use_vector_push(false);
  const Spectrum s = random_program(40, 3, 120, 0.3, 7);
  expect_reference_scores(s, join_functions(s, random_calls(40, 8)));
  detail::use_vector_push(true);
}

}  // namespace
}  // namespace dlfl::graph
