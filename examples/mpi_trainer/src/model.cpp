// The linear model's losses and gradients, and the synthetic batches.
#include "mpi_trainer/model.h"

#include <cmath>
#include <stdexcept>

namespace mpi_trainer {
namespace {

// splitmix64 (Steele et al., OOPSLA 2014): the same numbers on every platform, unlike
// the standard library's distributions.
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

// log(1 + e^z) without overflow.
double softplus(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

double sigmoid(double z) {
  if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

}  // namespace

Batch make_batch(std::size_t samples, std::size_t features, std::uint64_t seed, Loss loss) {
  Batch batch;
  batch.features = features;
  batch.x.resize(samples * features);
  batch.y.resize(samples);
  SplitMix rng{seed};
  for (std::size_t i = 0; i < samples; ++i) {
    double target = 0.3;  // the true bias
    for (std::size_t j = 0; j < features; ++j) {
      const double v = 2.0 * rng.uniform() - 1.0;
      batch.x[i * features + j] = v;
      target += v * (j % 2 == 0 ? 0.5 : -0.5) * static_cast<double>(j + 1);
    }
    batch.y[i] = loss == Loss::logistic ? (target > 0 ? 1.0 : 0.0) : target;
  }
  return batch;
}

Model::Model(std::size_t features, Loss loss) : features_(features), loss_(loss), params_(features + 1, 0.0) {}

void Model::init_zeros() { params_.assign(features_ + 1, 0.0); }

void Model::init_random(std::uint64_t seed) {
  SplitMix rng{seed};
  for (std::size_t j = 0; j < features_; ++j) params_[j] = rng.uniform() - 0.5;
  params_[features_] = 0.0;
}

double Model::output(const Batch& batch, std::size_t i) const {
  double z = params_[features_];
  for (std::size_t j = 0; j < features_; ++j) z += params_[j] * batch.x[i * features_ + j];
  return z;
}

double Model::loss_and_gradient(const Batch& batch, std::span<const std::size_t> samples,
                                std::span<double> grad) const {
  if (batch.features != features_ || grad.size() != params_.size())
    throw std::invalid_argument("batch or gradient of another model");
  double total = 0.0;
  for (const std::size_t i : samples) {
    const double z = output(batch, i);
    const double y = batch.y[i];
    double dz = 0.0;  // d loss / d z
    if (loss_ == Loss::squared) {
      total += 0.5 * (z - y) * (z - y);
      dz = z - y;
    } else {
      total += softplus(z) - y * z;
      dz = sigmoid(z) - y;
    }
    for (std::size_t j = 0; j < features_; ++j) grad[j] += dz * batch.x[i * features_ + j];
    grad[features_] += dz;
  }
  return total;
}

void Model::apply(std::span<const double> grad, double lr) {
  for (std::size_t j = 0; j < params_.size(); ++j) params_[j] -= lr * grad[j];
}

}  // namespace mpi_trainer
