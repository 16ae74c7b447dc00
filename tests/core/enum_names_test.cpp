// Each enum of the model reads back the one name it gives (parse_X(X_name(v)) == v), and
// refuses any other spelling.
#include <gtest/gtest.h>

#include "dlfl/aggregate.h"
#include "dlfl/multi_fault.h"
#include "dlfl/ranking.h"

namespace dlfl {
namespace {

TEST(EnumNames, GranularityReadsBackItsName) {
  for (const Granularity g : {Granularity::line, Granularity::block, Granularity::function, Granularity::file})
    EXPECT_EQ(parse_granularity(granularity_name(g)), g);
  EXPECT_EQ(granularity_name(Granularity::function), "function");
  EXPECT_FALSE(parse_granularity("statement"));
  EXPECT_FALSE(parse_granularity("Line"));
  EXPECT_FALSE(parse_granularity(""));
}

TEST(EnumNames, TieRuleReadsBackItsName) {
  for (const TieRule t : {TieRule::best, TieRule::worst, TieRule::average}) EXPECT_EQ(parse_tie_rule(tie_rule_name(t)), t);
  EXPECT_EQ(tie_rule_name(TieRule::worst), "worst");
  EXPECT_FALSE(parse_tie_rule("all"));
  EXPECT_FALSE(parse_tie_rule("mean"));
}

TEST(EnumNames, MultiFaultReadsBackItsName) {
  EXPECT_EQ(parse_multi_fault(multi_fault_name(MultiFault::flitsr)), MultiFault::flitsr);
  EXPECT_FALSE(parse_multi_fault("FLITSR"));
}

}  // namespace
}  // namespace dlfl
