// Synchronous data-parallel SGD: every rank holds a replica of the model and the same
// global batch, computes the mean gradient of its shard (shard.h), and the ranks average
// their gradients with an allreduce before each replica takes the same step.
#pragma once

#include <vector>

#include "mpi_trainer/comm.h"
#include "mpi_trainer/config.h"
#include "mpi_trainer/model.h"

namespace mpi_trainer {

class Trainer {
 public:
  // Collective: every rank constructs its Trainer (rank 0's initial weights win).
  Trainer(const Comm& comm, const TrainerConfig& config, std::size_t features);

  // Collective. The gradient averaged over the ranks' shard means of `batch`.
  std::vector<double> gradient(const Batch& batch) const;
  // Collective. One SGD step on `batch`; returns the averaged loss before the step.
  double step(const Batch& batch);
  // Collective. The mean loss over the ranks' shards of `batch` (no step).
  double evaluate(const Batch& batch) const;
  // Collective. Whether every rank holds rank 0's parameters.
  bool replicas_agree() const;

  const std::vector<double>& parameters() const { return model_.parameters(); }
  int world_size() const { return world_size_; }

 private:
  // Collective. The summed loss of this rank's shard and its gradient; `samples` set to
  // the shard's size.
  double shard_loss_and_gradient(const Batch& batch, std::vector<double>& grad, std::size_t& samples) const;

  const Comm& comm_;
  TrainerConfig config_;
  int world_size_;
  Model model_;
};

}  // namespace mpi_trainer
