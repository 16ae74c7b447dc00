// The collectives (suite CommNpK: run under mpirun -np K, tests/run_one.sh).
#include <gtest/gtest.h>

#include "mpi_trainer/comm.h"

namespace mpi_trainer {
namespace {

// Rank r contributes {r + 1, 10 - r}.
std::vector<double> contribution(const Comm& comm) {
  return {static_cast<double>(comm.rank() + 1), static_cast<double>(10 - comm.rank())};
}

void expect_sum_over_ranks(const Comm& comm) {
  std::vector<double> v = contribution(comm);
  comm.allreduce(v, ReduceOp::sum);
  const double k = comm.size();
  EXPECT_DOUBLE_EQ(v[0], k * (k + 1) / 2);
  EXPECT_DOUBLE_EQ(v[1], 10 * k - k * (k - 1) / 2);
}

void expect_allgather_in_rank_order(const Comm& comm) {
  const std::vector<double> all = comm.allgather(contribution(comm));
  EXPECT_EQ(all.size(), 2u * static_cast<std::size_t>(comm.size()));
  if (all.size() != 2u * static_cast<std::size_t>(comm.size())) return;
  for (int r = 0; r < comm.size(); ++r) {
    EXPECT_DOUBLE_EQ(all[2 * r], r + 1);
    EXPECT_DOUBLE_EQ(all[2 * r + 1], 10 - r);
  }
}

TEST(CommNp1, OneRankIsTheWholeWorld) {
  const Comm comm;
  EXPECT_EQ(comm.rank(), 0);
  EXPECT_EQ(comm.size(), 1);
  expect_sum_over_ranks(comm);
  expect_allgather_in_rank_order(comm);
}

TEST(CommNp2, AllreduceSumAddsEveryRank) { expect_sum_over_ranks(Comm()); }

TEST(CommNp3, AllreduceSumAddsEveryRank) { expect_sum_over_ranks(Comm()); }

TEST(CommNp2, AllreduceMaxAndMinPickAcrossRanks) {
  const Comm comm;
  std::vector<double> hi = contribution(comm), lo = contribution(comm);
  comm.allreduce(hi, ReduceOp::max);
  comm.allreduce(lo, ReduceOp::min);
  EXPECT_EQ(hi, (std::vector<double>{2, 10}));
  EXPECT_EQ(lo, (std::vector<double>{1, 9}));
}

TEST(CommNp2, BroadcastCopiesTheRootsValues) {
  const Comm comm;
  std::vector<double> v = contribution(comm);
  comm.broadcast(v, 1);
  EXPECT_EQ(v, (std::vector<double>{2, 9}));
}

TEST(CommNp2, AllgatherConcatenatesInRankOrder) { expect_allgather_in_rank_order(Comm()); }

TEST(CommNp3, AllgatherConcatenatesInRankOrder) { expect_allgather_in_rank_order(Comm()); }

TEST(CommNp2, EmptyCollectivesAreNoOps) {
  const Comm comm;
  std::vector<double> none;
  comm.allreduce(none, ReduceOp::sum);
  comm.broadcast(none, 0);
  EXPECT_TRUE(comm.allgather(none).empty());
}

}  // namespace
}  // namespace mpi_trainer
