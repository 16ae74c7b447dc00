// stratified_sample: seeded, round-robin over operators, order preserved.
#include "dlfl/lab/mutate/sampling.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dlfl/lab/mutate/operators.h"

namespace dlfl::mutate {
namespace {

std::vector<Mutant> pool() {
  // 10 constant_replace, 3 ceil_div, 1 swap_in_out.
  std::vector<Mutant> all;
  auto add = [&](const char* op, int n) {
    for (int i = 0; i < n; ++i) {
      Mutant m;
      m.op = op;
      m.id = std::string(op) + "-" + std::to_string(i);
      m.offset = all.size();
      all.push_back(m);
    }
  };
  add("constant_replace", 10);
  add("ceil_div", 3);
  add("swap_in_out", 1);
  return all;
}

std::map<std::string, int> per_operator(const std::vector<Mutant>& ms) {
  std::map<std::string, int> n;
  for (const auto& m : ms) ++n[m.op];
  return n;
}

TEST(StratifiedSample, TakesTurnsAcrossOperators) {
  const auto all = pool();
  EXPECT_EQ(per_operator(stratified_sample(all, 3, 7)),
            (std::map<std::string, int>{{"ceil_div", 1}, {"constant_replace", 1}, {"swap_in_out", 1}}));
  // swap_in_out runs out after one; the others keep taking turns.
  EXPECT_EQ(per_operator(stratified_sample(all, 8, 7)),
            (std::map<std::string, int>{{"ceil_div", 3}, {"constant_replace", 4}, {"swap_in_out", 1}}));
  // Catalog order decides who goes first when the turn is not complete.
  EXPECT_EQ(per_operator(stratified_sample(all, 2, 7)),
            (std::map<std::string, int>{{"ceil_div", 1}, {"swap_in_out", 1}}));
}

TEST(StratifiedSample, SameSeedSameMutantsInOriginalOrder) {
  const auto all = pool();
  const auto a = stratified_sample(all, 6, 42), b = stratified_sample(all, 6, 42);
  ASSERT_EQ(a.size(), 6u);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].id, b[i].id);
  for (std::size_t i = 1; i < a.size(); ++i) EXPECT_LT(a[i - 1].offset, a[i].offset);
  // Some other seed picks other constants (10 choose 4 makes a collision unlikely).
  std::set<std::string> seen;
  for (std::uint64_t seed = 0; seed < 8; ++seed)
    for (const auto& m : stratified_sample(all, 6, seed)) seen.insert(m.id);
  EXPECT_GT(seen.size(), 6u);
}

TEST(StratifiedSample, ZeroOrLargeMaxKeepsEverything) {
  const auto all = pool();
  EXPECT_EQ(stratified_sample(all, 0, 1).size(), all.size());
  EXPECT_EQ(stratified_sample(all, 100, 1).size(), all.size());
}

TEST(StratifiedSample, PinnedSelectionForSeedOne) {
  // Pins the shuffle: a change to it changes every published benchmark's mutants.
  const auto picked = stratified_sample(pool(), 4, 1);
  std::vector<std::string> ids;
  for (const auto& m : picked) ids.push_back(m.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"constant_replace-5", "ceil_div-0", "ceil_div-1", "swap_in_out-0"}));
}

}  // namespace
}  // namespace dlfl::mutate
