// Tests for joining spectrum functions with a call graph and for the propagation
// techniques (PRFL, call-neighbourhood), on small graphs with hand-computed results.
#include "dlfl/graph/propagation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "dlfl/error.h"
#include "dlfl/counts.h"
#include "dlfl/ranking.h"

namespace dlfl::graph {
namespace {

TEST(FunctionKey, AgreesAcrossProducers) {
  EXPECT_EQ(function_key("ns::Tensor::slice"), "ns::Tensor::slice");
  EXPECT_EQ(function_key("ns::Tensor::slice(long, long) const"), "ns::Tensor::slice");
  EXPECT_EQ(function_key("void ns::fill<float>(float*, int)"), "ns::fill");
  EXPECT_EQ(function_key("ns::Box<int>::get() const &"), "ns::Box::get");
  EXPECT_EQ(function_key("ns::Vec::operator[](unsigned long)"), "ns::Vec::operator[]");
  EXPECT_EQ(function_key("ns::Vec::operator<(ns::Vec const&) const"), "ns::Vec::operator<");
  EXPECT_EQ(function_key("ns::F::operator()(int)"), "ns::F::operator()");
  EXPECT_EQ(function_key("ns::f(int) [clone .cold]"), "ns::f");
  EXPECT_EQ(function_key("ns::f::lambda@12"), "ns::f::lambda@12");
}

// f calls g; h stands alone. Lines: f:1, g:10, g:11, h:20.
// t1 (fails) runs f, g:10; p1 runs g:10, g:11; p2 runs h.
Spectrum program() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1, 1, "f");
  b.add_element("a.cpp", 10, 10, "g(int)");  // gcov-style name: joins as g
  b.add_element("a.cpp", 11, 11, "g(int)");
  b.add_element("b.cpp", 20, 20, "h");
  b.add_test(TestCase::fail("t1"), {0, 1});
  b.add_test(TestCase::pass("p1"), {1, 2});
  b.add_test(TestCase::pass("p2"), {3});
  return std::move(b).finish();
}

CallGraph calls() {
  CallGraph g;
  g.add_call("f", "g", CallKind::direct);
  g.add_function("unrelated");
  return g;
}

TEST(JoinFunctions, ByNormalizedNameWithCallersAndCallees) {
  const FunctionGraph g = join_functions(program(), calls());
  ASSERT_EQ(g.size(), 3u);  // f, g, h
  EXPECT_EQ(g.joined, 2u);
  EXPECT_EQ(g.functions.group_of, (std::vector<std::uint32_t>{0, 1, 1, 2}));
  EXPECT_EQ(std::vector<std::uint32_t>(g.callees.begin(), g.callees.end()), (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(g.callee_offsets, (std::vector<std::uint64_t>{0, 1, 1, 1}));
  EXPECT_EQ(g.caller_offsets, (std::vector<std::uint64_t>{0, 0, 1, 1}));
}

TEST(JoinFunctions, ForeignGraphIsAnErrorEmptyGraphIsNot) {
  CallGraph foreign;
  foreign.add_call("x", "y", CallKind::direct);
  EXPECT_THROW(join_functions(program(), foreign), Error);
  const FunctionGraph g = join_functions(program(), CallGraph{});
  EXPECT_EQ(g.joined, 0u);
  EXPECT_TRUE(g.callees.empty());
}

// gcov names lambdas `main::{lambda(int)#1}::operator()(int) const`, the call graph
// `main::lambda@LINE`: each joins the graph lambda written last at or above its first line.
TEST(JoinFunctions, GcovLambdasJoinTheGraphsLambdaAtOrAboveTheirFirstLine) {
  SpectrumBuilder b;
  b.add_element("m.cpp", 7, 7, "main");
  b.add_element("m.cpp", 9, 9, "main::{lambda(int)#1}::operator()(int) const");   // written on line 8
  b.add_element("m.cpp", 21, 21, "main::{lambda(int)#2}::operator()(int) const");  // written on line 20
  b.add_element("m.cpp", 30, 30, "other::{lambda()#1}::operator()() const");      // no graph lambda
  b.add_test(TestCase::fail("t"), {0, 1, 2, 3});
  b.add_test(TestCase::pass("p"), {0});
  const Spectrum s = std::move(b).finish();
  CallGraph calls;
  calls.add_function("other");
  calls.add_call("main", "main::lambda@8", CallKind::direct);
  calls.add_call("main", "main::lambda@20", CallKind::direct);
  calls.add_call("main::lambda@20", "main::lambda@20::lambda@22", CallKind::direct);  // below line 21: not it
  const FunctionGraph g = join_functions(s, calls);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g.joined, 3u);  // main and both of its lambdas
  // main (0) calls both lambdas (1, 2); the other file's lambda (3) stays unjoined.
  EXPECT_EQ(g.callee_offsets, (std::vector<std::uint64_t>{0, 2, 2, 2, 2}));
  EXPECT_EQ(std::vector<std::uint32_t>(g.callees.begin(), g.callees.end()), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(g.caller_offsets, (std::vector<std::uint64_t>{0, 0, 1, 2, 2}));
}

TEST(Neighbors, CallerAndCalleeLiftEachOtherByHand) {
  // Function-level Ochiai, F = 1: f = 1/sqrt(1·1) = 1, g = 1/sqrt(1·2) = .7071, h = 0.
  // neighbors (weight .5): f = 1 + .5·.7071, g = .7071 + .5·1, h = 0 (no calls).
  const Spectrum s = program();
  const FunctionGraph g = join_functions(s, calls());
  const PropagatedScores p = propagate(s, g, make_formula("ochiai"), Propagation::neighbors);
  ASSERT_EQ(p.functions.size(), 3);
  EXPECT_NEAR(p.functions[0], 1 + 0.5 * std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(p.functions[1], std::sqrt(0.5) + 0.5, 1e-12);
  EXPECT_NEAR(p.functions[2], 0.0, 1e-12);
  // Lines: f's line first, then g's lines by their own score (g:10 1/sqrt(2) > g:11 0), h last.
  const auto ranked = rank(p.elements, s.tie_break_keys());
  EXPECT_EQ(ranked[0].element, 0u);
  EXPECT_EQ(ranked[1].element, 1u);
  EXPECT_EQ(ranked[2].element, 2u);
  EXPECT_EQ(ranked[3].element, 3u);
}

TEST(Prfl, FailingTestThatRunsFewFunctionsWeighsMore) {
  // t1 fails and runs only f; t2 fails and runs f, g, k, m; p1 passes and runs g, k, m.
  // No calls. Failing-side PageRank from {t1, t2}: t1 gives all its walk to f, t2 a
  // quarter to each, so w_f(f) > 1 > w_f(g) = w_f(k) = w_f(m).
  SpectrumBuilder b;
  for (const char* name : {"f", "g", "k", "m"}) b.add_element("a.cpp", static_cast<std::uint32_t>(name[0]), 0, name);
  b.add_test(TestCase::fail("t1"), {0});
  b.add_test(TestCase::fail("t2"), {0, 1, 2, 3});
  b.add_test(TestCase::pass("p1"), {1, 2, 3});
  const Spectrum s = std::move(b).finish();
  const FunctionGraph g = join_functions(s, CallGraph{});
  const Formula ochiai = make_formula("ochiai");
  const PropagatedScores p = propagate(s, g, ochiai, Propagation::prfl);
  const Eigen::ArrayXd plain = ochiai.score(compute_counts(g.functions.spectrum));
  // f's ef is scaled up, g's down: f stays first (Ochiai of an element every failing test
  // runs and no passing one is 1 at any weight) and g falls further behind.
  EXPECT_DOUBLE_EQ(p.functions[0], 1.0);
  EXPECT_DOUBLE_EQ(plain[0], 1.0);
  EXPECT_LT(p.functions[1], plain[1]);
  EXPECT_DOUBLE_EQ(p.functions[1], p.functions[2]);
}

TEST(Prfl, CallEdgesCarryWeightToTheCallee) {
  // t1 fails and runs f and g; p1 passes and runs g; h is run by p2 only. With f → h
  // called, h gains failing-side PageRank although no failing test runs it: ef stays 0,
  // so its score stays 0; f and g keep their order.
  const Spectrum s = program();
  const FunctionGraph g = join_functions(s, calls());
  const PropagatedScores p = propagate(s, g, make_formula("ochiai"), Propagation::prfl);
  EXPECT_GT(p.functions[0], p.functions[1]);
  EXPECT_EQ(p.functions[2], 0.0);
}

TEST(Lexicographic, PrimaryThenSecondaryWithExactTies) {
  Eigen::ArrayXd primary(4), secondary(4);
  primary << 2, 2, 1, 2;
  secondary << 0.1, 0.5, 9, 0.1;
  const Eigen::ArrayXd s = lexicographic_scores(primary, secondary);
  EXPECT_GT(s[1], s[0]);
  EXPECT_GT(s[0], s[2]);
  EXPECT_EQ(s[0], s[3]);
  // An undefined (NaN) score ranks below every number, -0 ties with 0, and equal pairs
  // get equal ordinals whatever their count.
  Eigen::ArrayXd p2(5), s2(5);
  p2 << std::nan(""), -1, 0.0, -0.0, std::nan("");
  s2 << 5, 0, 1, 1, 5;
  const Eigen::ArrayXd o = lexicographic_scores(p2, s2);
  EXPECT_EQ(o[0], o[4]);
  EXPECT_LT(o[0], o[1]);
  EXPECT_LT(o[1], o[2]);
  EXPECT_EQ(o[2], o[3]);
  // Dense ranks: 3 distinct primaries x 3 distinct secondaries.
  EXPECT_EQ(o[2], 2.0 * 3 + 1);
}

}  // namespace
}  // namespace dlfl::graph
