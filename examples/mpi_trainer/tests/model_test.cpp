// The linear model's losses and gradients (no communication: suite ModelNp1).
#include <gtest/gtest.h>

#include <numeric>

#include "mpi_trainer/model.h"

namespace mpi_trainer {
namespace {

// The summed loss's gradient by central differences.
std::vector<double> numeric_gradient(Model model, const Batch& batch, std::span<const std::size_t> samples) {
  std::vector<double> out(model.parameters().size()), scratch(out.size());
  for (std::size_t j = 0; j < out.size(); ++j) {
    const double h = 1e-6, keep = model.parameters()[j];
    model.parameters()[j] = keep + h;
    const double up = model.loss_and_gradient(batch, samples, scratch);
    model.parameters()[j] = keep - h;
    const double down = model.loss_and_gradient(batch, samples, scratch);
    model.parameters()[j] = keep;
    out[j] = (up - down) / (2 * h);
  }
  return out;
}

void expect_gradient_matches_differences(Loss loss) {
  const Batch batch = make_batch(6, 3, 11, loss);
  Model model(3, loss);
  model.init_random(5);
  const std::vector<std::size_t> samples{0, 2, 3, 5};
  std::vector<double> grad(4, 0.0);
  model.loss_and_gradient(batch, samples, grad);
  const std::vector<double> expected = numeric_gradient(model, batch, samples);
  for (std::size_t j = 0; j < grad.size(); ++j) EXPECT_NEAR(grad[j], expected[j], 1e-6) << "parameter " << j;
}

TEST(ModelNp1, SquaredLossGradientMatchesFiniteDifferences) { expect_gradient_matches_differences(Loss::squared); }

TEST(ModelNp1, LogisticLossGradientMatchesFiniteDifferences) { expect_gradient_matches_differences(Loss::logistic); }

TEST(ModelNp1, ZeroModelOutputsZeroAndLosesHalfTheSquaredTargets) {
  const Batch batch = make_batch(5, 2, 3, Loss::squared);
  Model model(2, Loss::squared);
  model.init_zeros();
  std::vector<std::size_t> all(5);
  std::iota(all.begin(), all.end(), 0);
  std::vector<double> grad(3, 0.0);
  double expected = 0;
  for (const double y : batch.y) expected += 0.5 * y * y;
  EXPECT_DOUBLE_EQ(model.loss_and_gradient(batch, all, grad), expected);
  EXPECT_EQ(model.output(batch, 4), 0.0);
}

TEST(ModelNp1, BatchesAndInitialWeightsAreSeeded) {
  EXPECT_EQ(make_batch(4, 3, 9, Loss::squared).x, make_batch(4, 3, 9, Loss::squared).x);
  EXPECT_NE(make_batch(4, 3, 9, Loss::squared).x, make_batch(4, 3, 10, Loss::squared).x);
  Model a(3, Loss::squared), b(3, Loss::squared), c(3, Loss::squared);
  a.init_random(1);
  b.init_random(1);
  c.init_random(2);
  EXPECT_EQ(a.parameters(), b.parameters());
  EXPECT_NE(a.parameters(), c.parameters());
  for (const double y : make_batch(20, 2, 4, Loss::logistic).y) EXPECT_TRUE(y == 0.0 || y == 1.0);
}

}  // namespace
}  // namespace mpi_trainer
