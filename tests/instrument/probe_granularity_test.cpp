// ProbeGranularity reads back the one name it gives, as `dlfl instrument --granularity` spells it.
#include <gtest/gtest.h>

#include "dlfl/instrument/instrumenter.h"

namespace dlfl::instrument {
namespace {

TEST(EnumNames, ProbeGranularityReadsBackItsName) {
  for (const ProbeGranularity g : {ProbeGranularity::statement, ProbeGranularity::block})
    EXPECT_EQ(parse_probe_granularity(probe_granularity_name(g)), g);
  EXPECT_EQ(probe_granularity_name(ProbeGranularity::block), "block");
  EXPECT_FALSE(parse_probe_granularity("line"));
  EXPECT_FALSE(parse_probe_granularity("Block"));
}

}  // namespace
}  // namespace dlfl::instrument
