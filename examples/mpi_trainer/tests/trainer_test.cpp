// The data-parallel trainer against a serial reference computed on one rank without the
// trainer's sharding or averaging (suites ConfigNpK, TrainerNpK: mpirun -np K).
#include <gtest/gtest.h>

#include <cstdlib>

#include "mpi_trainer/trainer.h"

namespace mpi_trainer {
namespace {

// The mean gradient (then the mean loss) over the padded global batch the ranks' shards
// hold together: ceil(n / k) * k samples, sample i being i mod n.
std::vector<double> serial_gradient(const Model& model, const Batch& batch, int ranks) {
  const std::size_t k = static_cast<std::size_t>(ranks);
  const std::size_t padded = (batch.size() + k - 1) / k * k;
  std::vector<std::size_t> samples;
  for (std::size_t i = 0; i < padded; ++i) samples.push_back(i % batch.size());
  std::vector<double> grad(model.parameters().size(), 0.0);
  const double loss = model.loss_and_gradient(batch, samples, grad);
  grad.push_back(loss);
  for (double& g : grad) g /= static_cast<double>(padded);
  return grad;
}

void expect_near(const std::vector<double>& actual, const std::vector<double>& expected) {
  EXPECT_EQ(actual.size(), expected.size());
  for (std::size_t j = 0; j < actual.size() && j < expected.size(); ++j)
    EXPECT_NEAR(actual[j], expected[j], 1e-9) << "value " << j;
}

// The trainer's averaged gradient of a fresh zero model equals the serial one.
void expect_gradient_matches_serial(std::size_t samples, Loss loss) {
  const Comm comm;
  TrainerConfig config;
  config.loss = loss;
  const Trainer trainer(comm, config, 3);
  const Batch batch = make_batch(samples, 3, 21, loss);
  Model reference(3, loss);
  reference.init_zeros();
  expect_near(trainer.gradient(batch), serial_gradient(reference, batch, comm.size()));
}

// `steps` trainer steps from random weights against the same steps taken serially.
void expect_training_matches_serial(int steps) {
  const Comm comm;
  TrainerConfig config;
  config.random_init = true;
  config.seed = 7;
  config.lr = 0.2;
  Trainer trainer(comm, config, 4);
  Model reference(4, Loss::squared);
  reference.init_random(config.seed);  // rank 0's weights
  const Batch batch = make_batch(12, 4, 3, Loss::squared);
  for (int s = 0; s < steps; ++s) {
    std::vector<double> grad = serial_gradient(reference, batch, comm.size());
    const double expected_loss = grad.back();
    grad.pop_back();
    reference.apply(grad, config.lr);
    EXPECT_NEAR(trainer.step(batch), expected_loss, 1e-9) << "step " << s;
  }
  expect_near(trainer.parameters(), reference.parameters());
}

// evaluate() is the mean loss over the padded batch.
void expect_evaluate_is_mean_loss(std::size_t samples) {
  const Comm comm;
  TrainerConfig config;
  config.random_init = true;
  const Trainer trainer(comm, config, 2);
  Model reference(2, Loss::squared);
  reference.init_random(config.seed);
  const Batch batch = make_batch(samples, 2, 8, Loss::squared);
  EXPECT_NEAR(trainer.evaluate(batch), serial_gradient(reference, batch, comm.size()).back(), 1e-12);
}

TEST(ConfigNp1, ExplicitWorldSizeWins) {
  TrainerConfig config;
  config.world_size = 4;
  EXPECT_EQ(resolve_world_size(config, Comm()), 4);
}

TEST(ConfigNp2, WorldSizeDefaultsToTheCommunicators) {
  EXPECT_EQ(resolve_world_size(TrainerConfig{}, Comm()), 2);
}

TEST(ConfigNp2, WorldSizeFromTheLaunchersEnvironment) {
  ::setenv("WORLD_SIZE", "2", 1);
  const int from_env = resolve_world_size(TrainerConfig{}, Comm());
  ::setenv("WORLD_SIZE", "two", 1);
  EXPECT_THROW(resolve_world_size(TrainerConfig{}, Comm()), std::invalid_argument);
  ::unsetenv("WORLD_SIZE");
  EXPECT_EQ(from_env, 2);
}

TEST(TrainerNp1, GradientIsTheBatchMean) { expect_gradient_matches_serial(7, Loss::squared); }

TEST(TrainerNp2, GradientMatchesSerial) { expect_gradient_matches_serial(8, Loss::squared); }

TEST(TrainerNp2, LogisticGradientMatchesSerial) { expect_gradient_matches_serial(10, Loss::logistic); }

TEST(TrainerNp3, GradientMatchesSerialWithPadding) { expect_gradient_matches_serial(10, Loss::squared); }

TEST(TrainerNp2, GradientWithExplicitWorldSizeMatchesSerial) {
  const Comm comm;
  TrainerConfig config;
  config.world_size = comm.size();
  const Trainer trainer(comm, config, 3);
  const Batch batch = make_batch(6, 3, 2, Loss::squared);
  Model reference(3, Loss::squared);
  expect_near(trainer.gradient(batch), serial_gradient(reference, batch, comm.size()));
}

TEST(TrainerNp1, TrainingMatchesSerialSgd) { expect_training_matches_serial(5); }

TEST(TrainerNp2, TrainingMatchesSerialSgd) { expect_training_matches_serial(5); }

TEST(TrainerNp2, ZeroInitReplicasAgreeAfterSteps) {
  const Comm comm;
  Trainer trainer(comm, TrainerConfig{}, 3);
  const Batch batch = make_batch(8, 3, 4, Loss::squared);
  for (int s = 0; s < 3; ++s) trainer.step(batch);
  EXPECT_TRUE(trainer.replicas_agree());
}

TEST(TrainerNp2, RandomInitReplicasStartFromRankZero) {
  const Comm comm;
  TrainerConfig config;
  config.random_init = true;
  config.seed = 3;
  const Trainer trainer(comm, config, 3);
  Model rank0(3, Loss::squared);
  rank0.init_random(config.seed);
  EXPECT_EQ(trainer.parameters(), rank0.parameters());
}

TEST(TrainerNp1, EvaluateIsTheMeanLoss) { expect_evaluate_is_mean_loss(5); }

TEST(TrainerNp2, EvaluateIsTheGlobalMeanLoss) { expect_evaluate_is_mean_loss(8); }

TEST(TrainerNp3, EvaluateIsTheGlobalMeanLoss) { expect_evaluate_is_mean_loss(7); }

TEST(TrainerNp2, LogisticRegressionLearnsTheSeparator) {
  const Comm comm;
  TrainerConfig config;
  config.loss = Loss::logistic;
  config.lr = 1.0;
  Trainer trainer(comm, config, 2);
  const Batch batch = make_batch(32, 2, 5, Loss::logistic);
  const double before = trainer.evaluate(batch);
  for (int s = 0; s < 50; ++s) trainer.step(batch);
  const double after = trainer.evaluate(batch);
  Model reference(2, Loss::logistic);
  EXPECT_NEAR(before, serial_gradient(reference, batch, comm.size()).back(), 1e-12);
  EXPECT_LT(after, 0.5 * before);
  EXPECT_TRUE(trainer.replicas_agree());
}

}  // namespace
}  // namespace mpi_trainer
