// Comm: the trainer's collectives as thin calls into MPI.
#include "mpi_trainer/comm.h"

#include <mpi.h>

#include <stdexcept>

namespace mpi_trainer {
namespace {

MPI_Op to_mpi(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return MPI_SUM;
    case ReduceOp::max:
      return MPI_MAX;
    case ReduceOp::min:
      return MPI_MIN;
  }
  throw std::invalid_argument("unknown ReduceOp");
}

int count_of(std::size_t n) {
  if (n > static_cast<std::size_t>(INT32_MAX)) throw std::length_error("MPI counts are ints");
  return static_cast<int>(n);
}

}  // namespace

Comm::Comm() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

void Comm::allreduce(std::span<double> values, ReduceOp op) const {
  if (values.empty()) return;
  MPI_Allreduce(MPI_IN_PLACE, values.data(), count_of(values.size()), MPI_DOUBLE, to_mpi(op), MPI_COMM_WORLD);
}

void Comm::broadcast(std::span<double> values, int root) const {
  if (values.empty()) return;
  MPI_Bcast(values.data(), count_of(values.size()), MPI_DOUBLE, root, MPI_COMM_WORLD);
}

std::vector<double> Comm::allgather(std::span<const double> local) const {
#if MPI_TRAINER_FAULT_GATHER_BUFFER_ONE_RANK
  std::vector<double> all(local.size());
#else
  std::vector<double> all(local.size() * static_cast<std::size_t>(size_));
#endif
  if (local.empty()) return all;
  const int n = count_of(local.size());
  MPI_Allgather(local.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, MPI_COMM_WORLD);
  return all;
}

}  // namespace mpi_trainer
