// Tests for localize(): each step of the one ranking pipeline gives what the step's own
// function gives (aggregate, score_spectrum, max_by_group, flitsr, propagate, rank), and
// the request's cuts and checks.
#include "dlfl/localize/localize.h"

#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "dlfl/graph/call_graph.h"
#include "dlfl/scoring.h"

namespace dlfl {
namespace {

// f calls g; h stands alone. Lines f:1, f:2, g:10, g:11, h:20.
Spectrum program() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1, 1, "f");
  b.add_element("a.cpp", 2, 2, "f");
  b.add_element("a.cpp", 10, 10, "g");
  b.add_element("a.cpp", 11, 11, "g");
  b.add_element("b.cpp", 20, 20, "h");
  b.add_test(TestCase::fail("t1"), {0, 1, 2});
  b.add_test(TestCase::fail("t2"), {3});
  b.add_test(TestCase::pass("p1"), {2, 3});
  b.add_test(TestCase::pass("p2"), {0, 1, 4});
  return std::move(b).finish();
}

RankRequest request(std::vector<std::string> formulas) {
  RankRequest r;
  for (const auto& f : formulas) r.formulas.push_back(make_formula(f));
  return r;
}

bool same(const Eigen::ArrayXd& a, const Eigen::ArrayXd& b) { return a.size() == b.size() && (a == b).all(); }

TEST(Localize, LinesAreTheInputScoredAndRanked) {
  const Spectrum s = program();
  const RankRequest r = request({"ochiai", "tarantula"});
  const Ranking got = localize(s, r);
  EXPECT_EQ(&got.elements(), &s);  // line granularity: no copy of the input
  const Scores expected = score_spectrum(s, r.formulas);
  ASSERT_EQ(got.formulas.size(), 2u);
  for (std::size_t f = 0; f < 2; ++f) {
    EXPECT_EQ(got.formulas[f].formula, r.formulas[f].name());
    EXPECT_TRUE(same(got.formulas[f].scores, expected.per_formula[f]));
    const auto ranked = rank(expected.per_formula[f], s.tie_order());
    ASSERT_EQ(got.formulas[f].ranked.size(), ranked.size());
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      EXPECT_EQ(got.formulas[f].ranked[i].element, ranked[i].element);
      EXPECT_EQ(got.formulas[f].ranked[i].best, ranked[i].best);
      EXPECT_EQ(got.formulas[f].ranked[i].worst, ranked[i].worst);
    }
  }
}

TEST(Localize, GranularityAggregatesFirst) {
  const Spectrum s = program();
  for (const Granularity g : {Granularity::block, Granularity::function, Granularity::file}) {
    RankRequest r = request({"ochiai"});
    r.granularity = g;
    const Ranking got = localize(s, r);
    const Aggregated groups = aggregate(s, g);
    EXPECT_EQ(got.granularity(), g);
    EXPECT_EQ(got.elements().element_count(), groups.spectrum.element_count()) << granularity_name(g);
    EXPECT_TRUE(same(got.formulas[0].scores, score_spectrum(groups.spectrum, r.formulas).per_formula[0]));
  }
}

TEST(Localize, MaxAggregationKeepsEachGroupsBestLine) {
  const Spectrum s = program();
  RankRequest r = request({"ochiai"});
  r.granularity = Granularity::function;
  r.aggregation = Aggregation::max;
  const Ranking got = localize(s, r);
  const Aggregated groups = aggregate(s, Granularity::function);
  const auto lines = score_spectrum(s, r.formulas).per_formula[0];
  EXPECT_TRUE(same(got.formulas[0].scores, max_by_group(lines, groups.group_of, groups.spectrum.element_count())));
}

TEST(Localize, FlitsrOrdersByItsBasis) {
  const Spectrum s = program();
  RankRequest r = request({"ochiai"});
  r.multi_fault = MultiFault::flitsr;
  const Ranking got = localize(s, r);
  EXPECT_TRUE(same(got.formulas[0].scores, flitsr(s, r.formulas[0], s.tie_break_keys()).scores));
}

TEST(Localize, PropagationRanksFunctionsOrLinesByFunction) {
  const Spectrum s = program();
  graph::CallGraph calls;
  calls.add_call("f", "g", graph::CallKind::direct);
  calls.add_function("h");
  const graph::CompactCallGraph compact = graph::compact_call_graph(calls);
  const graph::FunctionGraph functions = graph::join_functions(s, compact);
  for (const auto p : {graph::Propagation::prfl, graph::Propagation::neighbors}) {
    RankRequest r = request({"ochiai"});
    r.propagation = p;
    r.call_graph = &compact;
    const auto expected = graph::propagate(s, functions, r.formulas[0], p);
    const Ranking lines = localize(s, r);
    EXPECT_TRUE(same(lines.formulas[0].scores, expected.elements)) << graph::propagation_name(p);
    r.granularity = Granularity::function;
    const Ranking by_function = localize(s, r);
    EXPECT_EQ(by_function.elements().element_count(), 3u);
    EXPECT_TRUE(same(by_function.formulas[0].scores, expected.functions)) << graph::propagation_name(p);
  }
}

TEST(Localize, TopAndMinScoreCutTheRankingNotThePositions) {
  const Spectrum s = program();
  RankRequest r = request({"ochiai"});
  const Ranking all = localize(s, r);
  r.top = 2;
  const Ranking top = localize(s, r);
  ASSERT_EQ(top.formulas[0].ranked.size(), 2u);
  EXPECT_EQ(top.formulas[0].ranked[1].worst, all.formulas[0].ranked[1].worst);
  r.top = 0;
  r.min_score = all.formulas[0].ranked[0].score;
  const Ranking above = localize(s, r);
  EXPECT_FALSE(above.formulas[0].ranked.empty());
  for (const auto& e : above.formulas[0].ranked) EXPECT_GE(e.score, r.min_score);
  r.ranked = false;
  const Ranking scores_only = localize(s, r);
  EXPECT_TRUE(scores_only.formulas[0].ranked.empty());
  EXPECT_TRUE(same(scores_only.formulas[0].scores, all.formulas[0].scores));
}

TEST(Localize, ReportsFiniteRangeAndUndefinedScores) {
  const Spectrum s = program();
  const Ranking got = localize(s, request({"ef/ep"}));  // h: 0/1; every other line 1/1
  EXPECT_EQ(got.formulas[0].lowest_score, 0.0);
  EXPECT_EQ(got.formulas[0].highest_score, 1.0);
  EXPECT_EQ(got.formulas[0].undefined, 0u);
  const Ranking undefined = localize(s, request({"(ef-ef)/(ep-ep)"}));
  EXPECT_EQ(undefined.formulas[0].undefined, s.element_count());
  EXPECT_EQ(undefined.formulas[0].lowest_score, 0.0);
  EXPECT_EQ(undefined.formulas[0].highest_score, 0.0);
}

TEST(Localize, RefusesContradictoryRequests) {
  const Spectrum s = program();
  const graph::CompactCallGraph none;
  RankRequest r = request({"ochiai"});
  r.propagation = graph::Propagation::prfl;
  EXPECT_THROW(localize(s, r), Error);  // no call graph
  r.call_graph = &none;
  r.multi_fault = MultiFault::flitsr;
  EXPECT_THROW(localize(s, r), Error);
  r.multi_fault.reset();
  r.granularity = Granularity::function;
  r.aggregation = Aggregation::max;
  EXPECT_THROW(localize(s, r), Error);
}

TEST(Localize, NamesTheCallGraphThatJoinsNothing) {
  const Spectrum s = program();
  graph::CallGraph foreign;
  foreign.add_call("x", "y", graph::CallKind::direct);
  const graph::CompactCallGraph compact = graph::compact_call_graph(foreign);
  RankRequest r = request({"ochiai"});
  r.propagation = graph::Propagation::neighbors;
  r.call_graph = &compact;
  r.call_graph_name = "calls.tsv";
  try {
    localize(s, r);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message().rfind("calls.tsv: ", 0), 0u) << e.message();
  }
}

// Mutants on f:1 and f:2, which tie under every formula (same tests run them): the
// failing test t1 kills the one on f:2, the passing p2 the one on f:1.
Spectrum kills_of_program() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1, 1, "f");
  b.add_element("a.cpp", 2, 2, "f");
  b.add_test(TestCase::fail("t1"), {1});
  b.add_test(TestCase::fail("t2"), {});
  b.add_test(TestCase::pass("p1"), {});
  b.add_test(TestCase::pass("p2"), {0});
  return std::move(b).finish();
}

TEST(Localize, MutationTechniquesScoreTheLinesFromTheKillMatrix) {
  const Spectrum s = program();
  const Spectrum kills = kills_of_program();
  RankRequest r = request({"ochiai"});
  r.kill_matrix = &kills;
  const Eigen::ArrayXd sbfl = localize(s, r).formulas[0].scores;
  ASSERT_EQ(sbfl[0], sbfl[1]);  // the tie the kill matrix breaks
  for (auto technique : {MutationTechnique::metallaxis, MutationTechnique::muse, MutationTechnique::hybrid}) {
    r.mutation = technique;
    const Ranking ranking = localize(s, r);
    const RankedFormula& f = ranking.formulas[0];
    EXPECT_GT(f.scores[1], f.scores[0]) << mutation_technique_name(technique);
    EXPECT_EQ(f.ranked.size(), s.element_count());
  }
  r.mutation = MutationTechnique::hybrid;
  const Ranking hybrid = localize(s, r);
  EXPECT_EQ(hybrid.formulas[0].formula, "hybrid-ochiai");
  EXPECT_TRUE(same(hybrid.formulas[0].scores, hybrid_scores(sbfl, metallaxis_scores(s, kills, make_formula("ochiai")))));
  r.mutation = MutationTechnique::metallaxis;
  EXPECT_TRUE(same(localize(s, r).formulas[0].scores, metallaxis_scores(s, kills, make_formula("ochiai"))));
}

TEST(Localize, MutationTechniquesRefuseWhatTheyCannotRank) {
  const Spectrum s = program();
  const Spectrum kills = kills_of_program();
  RankRequest r = request({"ochiai"});
  r.mutation = MutationTechnique::hybrid;
  EXPECT_THROW(localize(s, r), Error);  // no kill matrix
  r.kill_matrix = &kills;
  r.granularity = Granularity::function;
  EXPECT_THROW(localize(s, r), Error);
  r.granularity = Granularity::line;
  r.multi_fault = MultiFault::flitsr;
  EXPECT_THROW(localize(s, r), Error);
}

TEST(EnumNames, PropagationReadsBackItsName) {
  for (const auto p : {graph::Propagation::prfl, graph::Propagation::neighbors})
    EXPECT_EQ(graph::parse_propagation(graph::propagation_name(p)), p);
}

TEST(EnumNames, AggregationReadsBackItsName) {
  for (const Aggregation a : {Aggregation::spectrum, Aggregation::max})
    EXPECT_EQ(parse_aggregation(aggregation_name(a)), a);
  EXPECT_FALSE(parse_aggregation("maximum"));
  EXPECT_FALSE(parse_aggregation(""));
}

}  // namespace
}  // namespace dlfl
