// Adam (Kingma & Ba, 2015) with bias-corrected moment estimates and L2 weight decay.
#include <cmath>
#include <cstddef>
#include <utility>

#include "tensorlite/error.h"
#include "tensorlite/optim.h"

namespace tensorlite {

Adam::Adam(std::vector<Tensor> params, AdamOptions options)
    : Optimizer(std::move(params)), options_(options) {
  if (!(options_.lr >= 0.0) || !(options_.eps >= 0.0) || !(options_.weight_decay >= 0.0)) {
    throw ArgumentError("Adam: lr, eps and weight_decay must be >= 0");
  }
  if (!(options_.beta1 >= 0.0 && options_.beta1 < 1.0) ||
      !(options_.beta2 >= 0.0 && options_.beta2 < 1.0)) {
    throw ArgumentError("Adam: betas must lie in [0, 1)");
  }
  for (const Tensor& p : params_) {
    exp_avg_.emplace_back(static_cast<std::size_t>(p.numel()), 0.0);
    exp_avg_sq_.emplace_back(static_cast<std::size_t>(p.numel()), 0.0);
  }
}

void Adam::step(const std::vector<Tensor>& grads) {
  check_grads(grads);
  ++step_count_;
  const auto t = static_cast<double>(step_count_);
  // The moments start at 0 and are biased towards it by beta^t; dividing by
  // (1 - beta^t) undoes that (Algorithm 1 of the paper).
  const double bias_correction1 = 1.0 - std::pow(options_.beta1, t);
#if TENSORLITE_FAULT_ADAM_BIAS_CORRECTION
  const double bias_correction2 = 1.0 - std::pow(options_.beta1, t);
#else
  const double bias_correction2 = 1.0 - std::pow(options_.beta2, t);
#endif
  const double step_size = options_.lr / bias_correction1;
  const double sqrt_bias_correction2 = std::sqrt(bias_correction2);
  for (std::size_t i = 0; i < params_.size(); ++i) {
    std::vector<double> weights = params_[i].to_vector();
    const std::vector<double> grad = grads[i].to_vector();
    std::vector<double>& m = exp_avg_[i];
    std::vector<double>& v = exp_avg_sq_[i];
    for (std::size_t j = 0; j < weights.size(); ++j) {
      const double d = grad[j] + options_.weight_decay * weights[j];
      m[j] = options_.beta1 * m[j] + (1.0 - options_.beta1) * d;
      v[j] = options_.beta2 * v[j] + (1.0 - options_.beta2) * d * d;
      // eps is added after the correction, as in the paper and PyTorch.
      const double denom = std::sqrt(v[j]) / sqrt_bias_correction2 + options_.eps;
      weights[j] -= step_size * m[j] / denom;
    }
    params_[i].copy_(Tensor::from_vector(weights, params_[i].shape(), DType::Float64));
  }
}

}  // namespace tensorlite
