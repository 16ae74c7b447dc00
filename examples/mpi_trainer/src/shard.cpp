// The DistributedSampler-style split of a global batch over the ranks.
#include "mpi_trainer/shard.h"

#include <stdexcept>

namespace mpi_trainer {

Shard shard_of(std::size_t batch, int rank, int world) {
  if (world < 1) throw std::invalid_argument("world size must be at least 1");
  if (rank < 0 || rank >= world) throw std::invalid_argument("rank outside the world");
  const auto ranks = static_cast<std::size_t>(world);
  const auto r = static_cast<std::size_t>(rank);
  const std::size_t per_rank = (batch + ranks - 1) / ranks;
  Shard shard;
  shard.count = per_rank;
#if MPI_TRAINER_FAULT_SHARD_OFFSET
  shard.begin = r * per_rank + r;
#else
  shard.begin = r * per_rank;
#endif
  return shard;
}

std::vector<std::size_t> shard_samples(const Shard& shard, std::size_t batch) {
  std::vector<std::size_t> samples;
  if (batch == 0) return samples;
  samples.reserve(shard.count);
  for (std::size_t k = 0; k < shard.count; ++k) samples.push_back((shard.begin + k) % batch);
  return samples;
}

}  // namespace mpi_trainer
