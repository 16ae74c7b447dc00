// The batch split (no communication: suite ShardNp1).
#include <gtest/gtest.h>

#include <stdexcept>

#include "mpi_trainer/shard.h"

namespace mpi_trainer {
namespace {

// How often each sample of a batch of `batch` is in some rank's shard.
std::vector<int> uses(std::size_t batch, int world) {
  std::vector<int> n(batch, 0);
  for (int r = 0; r < world; ++r)
    for (const std::size_t i : shard_samples(shard_of(batch, r, world), batch)) ++n.at(i);
  return n;
}

TEST(ShardNp1, OneRankTakesTheWholeBatch) {
  const Shard s = shard_of(7, 0, 1);
  EXPECT_EQ(s.begin, 0u);
  EXPECT_EQ(s.count, 7u);
  EXPECT_EQ(shard_samples(s, 7), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(ShardNp1, EvenSplitUsesEverySampleOnce) {
  EXPECT_EQ(uses(8, 2), std::vector<int>(8, 1));
  EXPECT_EQ(uses(12, 4), std::vector<int>(12, 1));
  EXPECT_EQ(shard_samples(shard_of(8, 1, 2), 8), (std::vector<std::size_t>{4, 5, 6, 7}));
}

TEST(ShardNp1, UnevenSplitPadsByWrappingAround) {
  // 10 samples on 3 ranks: 4 each, the last shard is 8, 9, 0, 1.
  EXPECT_EQ(shard_samples(shard_of(10, 2, 3), 10), (std::vector<std::size_t>{8, 9, 0, 1}));
  EXPECT_EQ(uses(10, 3), (std::vector<int>{2, 2, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(ShardNp1, RefusesRanksOutsideTheWorld) {
  EXPECT_THROW(shard_of(8, 2, 2), std::invalid_argument);
  EXPECT_THROW(shard_of(8, -1, 2), std::invalid_argument);
  EXPECT_THROW(shard_of(8, 0, 0), std::invalid_argument);
  EXPECT_TRUE(shard_samples(shard_of(0, 0, 1), 0).empty());
}

}  // namespace
}  // namespace mpi_trainer
