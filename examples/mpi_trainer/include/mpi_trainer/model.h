// A linear model (weights and a bias) trained with squared loss (linear regression) or
// logistic loss (binary logistic regression), and the synthetic batches the tests use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mpi_trainer {

enum class Loss { squared, logistic };

// Samples row-major: x[i * features + j]; y[i] a target (squared) or a 0/1 label (logistic).
struct Batch {
  std::size_t features = 0;
  std::vector<double> x;
  std::vector<double> y;
  std::size_t size() const { return y.size(); }
};

// A deterministic batch (same on every rank and machine for the same arguments): x
// uniform in [-1, 1), y from a fixed linear model (thresholded at 0 for logistic loss).
Batch make_batch(std::size_t samples, std::size_t features, std::uint64_t seed, Loss loss);

class Model {
 public:
  Model(std::size_t features, Loss loss);

  void init_zeros();
  // Weights uniform in [-0.5, 0.5) from `seed`, bias 0.
  void init_random(std::uint64_t seed);

  // The raw output (x . w + b) for sample `i` of `batch`.
  double output(const Batch& batch, std::size_t i) const;
  // The summed loss of `samples` of `batch`; adds their summed gradient to `grad`
  // (parameters().size() values: the weights', then the bias').
  double loss_and_gradient(const Batch& batch, std::span<const std::size_t> samples, std::span<double> grad) const;
  // parameters -= lr * grad
  void apply(std::span<const double> grad, double lr);

  std::vector<double>& parameters() { return params_; }
  const std::vector<double>& parameters() const { return params_; }

 private:
  std::size_t features_;
  Loss loss_;
  std::vector<double> params_;  // features_ weights, then the bias
};

}  // namespace mpi_trainer
