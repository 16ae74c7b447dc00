// Drawing multi-fault combinations: members make a test fail alone, share a group, never
// overlap in one file; the draw is reproducible and bounded by what the candidates allow.
#include "dlfl/lab/bench/fault_combinations.h"

#include <gtest/gtest.h>

#include <set>

namespace dlfl::bench {
namespace {

mutate::Mutant mutant(std::string id, std::string file, std::uint32_t line, std::uint32_t end_line,
                      mutate::BugType type) {
  mutate::Mutant m;
  m.id = std::move(id);
  m.file = std::move(file);
  m.line = line;
  m.end_line = end_line;
  m.bug_type = type;
  return m;
}

const auto T = mutate::BugType::traditional;
const auto D = mutate::BugType::tensor;

TEST(FaultCombinations, MembersFailAloneShareAGroupAndDoNotOverlap) {
  const std::vector<mutate::Mutant> mutants{
      mutant("a", "x.cpp", 10, 10, T), mutant("b", "x.cpp", 17, 18, T), mutant("c", "x.cpp", 18, 18, T),
      mutant("d", "y.cpp", 18, 18, T), mutant("e", "y.cpp", 30, 30, T), mutant("quiet", "y.cpp", 40, 40, T),
      mutant("t1", "z.cpp", 5, 5, D),  mutant("t2", "z.cpp", 6, 6, mutate::BugType::training),
      mutant("t3", "w.cpp", 1, 1, D)};
  const std::set<std::string> failing{"a", "b", "c", "d", "e", "t1", "t2", "t3"};  // not "quiet"
  const MultiFaultConfig config{.min_k = 2, .max_k = 3, .combinations = 5};
  const auto plan = plan_combinations(mutants, failing, config, 7);

  std::set<std::string> ids;
  std::size_t dl2 = 0, dl3 = 0, trad2 = 0, trad3 = 0;
  for (const auto& c : plan) {
    EXPECT_TRUE(ids.insert(c.id).second) << "drawn twice: " << c.id;
    const bool dl = mutate::is_dl(c.mutants.front()->bug_type);
    (c.mutants.size() == 2 ? (dl ? dl2 : trad2) : (dl ? dl3 : trad3))++;
    std::string joined;
    for (std::size_t i = 0; i < c.mutants.size(); ++i) {
      const auto& m = *c.mutants[i];
      joined += (i ? "+" : "") + m.id;
      EXPECT_TRUE(failing.contains(m.id)) << c.id;
      EXPECT_EQ(mutate::is_dl(m.bug_type), dl) << "groups mixed in " << c.id;
      EXPECT_GE(&m, mutants.data());  // points into the planned mutants
      EXPECT_LT(&m, mutants.data() + mutants.size());
      for (std::size_t j = 0; j < i; ++j) EXPECT_LT(c.mutants[j]->id, m.id);
    }
    EXPECT_EQ(c.id, joined);
    // b (x.cpp 17-18) and c (x.cpp 18) overlap; d is on line 18 of another file: allowed.
    EXPECT_FALSE(ids.contains("b+c") || c.id.find("b+c") != std::string::npos) << c.id;
  }
  // Three DL candidates: C(3,2) = 3 pairs and one triple, fewer than the 5 asked for.
  EXPECT_EQ(dl2, 3u);
  EXPECT_EQ(dl3, 1u);
  // Five traditional candidates, b+c excluded: 9 pairs and 7 triples available, 5 drawn.
  EXPECT_EQ(trad2, 5u);
  EXPECT_EQ(trad3, 5u);
  EXPECT_TRUE(ids.contains("t1+t2+t3"));

  // The same seed draws the same plan; another seed another (with this many choices).
  const auto again = plan_combinations(mutants, failing, config, 7);
  ASSERT_EQ(again.size(), plan.size());
  for (std::size_t i = 0; i < plan.size(); ++i) EXPECT_EQ(again[i].id, plan[i].id);
  const auto other = plan_combinations(mutants, failing, config, 8);
  std::vector<std::string> a, b;
  for (const auto& c : plan) a.push_back(c.id);
  for (const auto& c : other) b.push_back(c.id);
  EXPECT_NE(a, b);
}

TEST(FaultCombinations, TooFewCandidatesOrSingleModeGiveNone) {
  const std::vector<mutate::Mutant> mutants{mutant("a", "x.cpp", 1, 1, T), mutant("b", "x.cpp", 3, 3, D)};
  // One candidate per group: no pair within a group.
  EXPECT_TRUE(plan_combinations(mutants, {"a", "b"}, {.min_k = 2, .max_k = 4, .combinations = 5}, 1).empty());
  EXPECT_TRUE(plan_combinations(mutants, {"a", "b"}, MultiFaultConfig{}, 1).empty());  // k = 0: single mode
}

}  // namespace
}  // namespace dlfl::bench
