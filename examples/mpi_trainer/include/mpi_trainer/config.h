// The trainer's settings, and the world size its gradients are averaged over.
#pragma once

#include <cstdint>

#include "mpi_trainer/comm.h"
#include "mpi_trainer/model.h"

namespace mpi_trainer {

struct TrainerConfig {
  Loss loss = Loss::squared;
  double lr = 0.1;
  bool random_init = false;  // weights from seed + rank, then rank 0's broadcast to all
  std::uint64_t seed = 1;
  // The ranks a gradient is averaged over; 0: the launcher's WORLD_SIZE environment
  // variable (as torchrun sets it), else the communicator's size.
  int world_size = 0;
};

// The world size `config` asks for (see TrainerConfig::world_size); throws
// std::invalid_argument for a WORLD_SIZE that is not a positive integer.
int resolve_world_size(const TrainerConfig& config, const Comm& comm);

}  // namespace mpi_trainer
