// The collectives the trainer needs, over MPI_COMM_WORLD (Open MPI or any MPI-3 library).
// MPI must be initialised before a Comm is made and finalised after the last one is used.
// Every rank must call each collective in the same order (as with MPI itself).
#pragma once

#include <span>
#include <vector>

namespace mpi_trainer {

enum class ReduceOp { sum, max, min };

class Comm {
 public:
  Comm();  // this process's rank and the world's size

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Replaces `values` on every rank by their element-wise reduction over the ranks.
  void allreduce(std::span<double> values, ReduceOp op) const;
  // Copies `values` of rank `root` into `values` of every other rank (same length on all).
  void broadcast(std::span<double> values, int root) const;
  // Every rank's `local` (same length on all), concatenated in rank order.
  std::vector<double> allgather(std::span<const double> local) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace mpi_trainer
