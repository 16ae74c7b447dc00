// Data-parallel SGD over MPI: shard, local gradient, allreduce, average, step.
#include "mpi_trainer/trainer.h"

#include "mpi_trainer/shard.h"

namespace mpi_trainer {

Trainer::Trainer(const Comm& comm, const TrainerConfig& config, std::size_t features)
    : comm_(comm), config_(config), world_size_(resolve_world_size(config, comm)), model_(features, config.loss) {
  if (!config_.random_init) {
    model_.init_zeros();
    return;
  }
  // Each rank's random stream is its own (seed + rank); the replicas start from rank 0's.
  model_.init_random(config_.seed + static_cast<std::uint64_t>(comm_.rank()));
#if !MPI_TRAINER_FAULT_MISSING_BROADCAST
  comm_.broadcast(model_.parameters(), 0);
#endif
}

double Trainer::shard_loss_and_gradient(const Batch& batch, std::vector<double>& grad, std::size_t& samples) const {
  const Shard shard = shard_of(batch.size(), comm_.rank(), comm_.size());
  const std::vector<std::size_t> mine = shard_samples(shard, batch.size());
  grad.assign(model_.parameters().size(), 0.0);
  samples = mine.size();
  return model_.loss_and_gradient(batch, mine, grad);
}

std::vector<double> Trainer::gradient(const Batch& batch) const {
  std::vector<double> grad;
  std::size_t samples = 0;
  const double loss = shard_loss_and_gradient(batch, grad, samples);
  // One allreduce for the gradient and the loss: the shard means, summed over the ranks.
  grad.push_back(loss);
  const double scale = samples == 0 ? 0.0 : 1.0 / static_cast<double>(samples);
  for (double& g : grad) g *= scale;
  comm_.allreduce(grad, ReduceOp::sum);
  for (double& g : grad) g /= static_cast<double>(world_size_);
  return grad;  // the parameters' gradient, then the mean loss
}

double Trainer::step(const Batch& batch) {
  std::vector<double> grad = gradient(batch);
  const double loss = grad.back();
  grad.pop_back();
  model_.apply(grad, config_.lr);
  return loss;
}

double Trainer::evaluate(const Batch& batch) const {
  std::vector<double> grad;
  std::size_t samples = 0;
  std::vector<double> totals{shard_loss_and_gradient(batch, grad, samples), static_cast<double>(samples)};
#if MPI_TRAINER_FAULT_REDUCE_OP
  comm_.allreduce(totals, ReduceOp::max);
#else
  comm_.allreduce(totals, ReduceOp::sum);
#endif
  return totals[1] == 0 ? 0.0 : totals[0] / totals[1];
}

bool Trainer::replicas_agree() const {
  const std::vector<double>& mine = model_.parameters();
  const std::vector<double> all = comm_.allgather(mine);
  for (std::size_t r = 1; r < static_cast<std::size_t>(comm_.size()); ++r)
    for (std::size_t j = 0; j < mine.size(); ++j)
      if (all[r * mine.size() + j] != all[j]) return false;
  return true;
}

}  // namespace mpi_trainer
