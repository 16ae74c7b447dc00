// How a global batch is split over the ranks: PyTorch's DistributedSampler split, so
// that every rank steps with the same number of samples. Each rank takes ceil(n / world)
// consecutive samples; the last ranks' shards wrap around to the batch's start (padding),
// so the ranks' shards together hold every sample at least once.
#pragma once

#include <cstddef>
#include <vector>

namespace mpi_trainer {

struct Shard {
  std::size_t begin = 0;  // first sample
  std::size_t count = 0;  // samples begin, begin + 1, ... modulo the batch size
};

// The shard of `rank` (0 <= rank < world) of a batch of `batch` samples; throws
// std::invalid_argument for world < 1 or a rank outside the world.
Shard shard_of(std::size_t batch, int rank, int world);

// The sample indices of `shard` in a batch of `batch` samples (wrapped around).
std::vector<std::size_t> shard_samples(const Shard& shard, std::size_t batch);

}  // namespace mpi_trainer
