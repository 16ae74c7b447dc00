// Stochastic gradient descent with momentum, dampening, Nesterov and weight decay.
#include <cstddef>
#include <string>
#include <utility>

#include "tensorlite/error.h"
#include "tensorlite/optim.h"

namespace tensorlite {

Sgd::Sgd(std::vector<Tensor> params, SgdOptions options)
    : Optimizer(std::move(params)), options_(options) {
  if (!(options_.lr >= 0.0) || !(options_.momentum >= 0.0) || !(options_.weight_decay >= 0.0)) {
    throw ArgumentError("Sgd: lr, momentum and weight_decay must be >= 0");
  }
  if (options_.nesterov && (options_.momentum <= 0.0 || options_.dampening != 0.0)) {
    throw ArgumentError("Sgd: Nesterov momentum needs momentum > 0 and zero dampening");
  }
}

void Sgd::step(const std::vector<Tensor>& grads) {
  check_grads(grads);
  const bool use_momentum = options_.momentum != 0.0;
  // PyTorch seeds the buffer with the first gradient itself (no dampening on step 1).
  const bool first_step = use_momentum && momentum_.empty();
  if (first_step) {
    momentum_.resize(params_.size());
  }
  for (std::size_t i = 0; i < params_.size(); ++i) {
    std::vector<double> weights = params_[i].to_vector();
    const std::vector<double> grad = grads[i].to_vector();
    std::vector<double>* buffer = use_momentum ? &momentum_[i] : nullptr;
    if (first_step) {
      buffer->assign(weights.size(), 0.0);
    }
    for (std::size_t j = 0; j < weights.size(); ++j) {
      double d = grad[j] + options_.weight_decay * weights[j];
      if (buffer != nullptr) {
        double& b = (*buffer)[j];
        b = first_step ? d : options_.momentum * b + (1.0 - options_.dampening) * d;
        d = options_.nesterov ? d + options_.momentum * b : b;
      }
      weights[j] -= options_.lr * d;
    }
    params_[i].copy_(Tensor::from_vector(weights, params_[i].shape(), DType::Float64));
  }
}

}  // namespace tensorlite
