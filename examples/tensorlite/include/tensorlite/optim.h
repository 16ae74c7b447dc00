// Optimizers that update parameter tensors in place (PyTorch semantics).
#pragma once

#include <cstdint>
#include <vector>

#include "tensorlite/tensor.h"

namespace tensorlite {

// Parameters are held by handle and updated in place (through copy_, so views work too):
// the update is visible through every Tensor sharing their storage. They must be
// floating; optimizer state is kept in double whatever the parameter dtype.
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // One update from `grads`, which match the parameters one to one in shape.
  virtual void step(const std::vector<Tensor>& grads) = 0;
  const std::vector<Tensor>& params() const { return params_; }

 protected:
  explicit Optimizer(std::vector<Tensor> params);
  void check_grads(const std::vector<Tensor>& grads) const;

  std::vector<Tensor> params_;
};

struct SgdOptions {
  double lr = 0.01;
  double momentum = 0.0;
  double dampening = 0.0;
  double weight_decay = 0.0;  // L2 penalty added to the gradient
  bool nesterov = false;
};

class Sgd final : public Optimizer {
 public:
  Sgd(std::vector<Tensor> params, SgdOptions options);
  void step(const std::vector<Tensor>& grads) override;

 private:
  SgdOptions options_;
  std::vector<std::vector<double>> momentum_;  // empty until the first step
};

struct AdamOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.0;  // L2 penalty (Adam, not AdamW)
};

// Kingma & Ba (2015), Algorithm 1, with bias-corrected first and second moments.
class Adam final : public Optimizer {
 public:
  Adam(std::vector<Tensor> params, AdamOptions options);
  void step(const std::vector<Tensor>& grads) override;
  std::int64_t step_count() const { return step_count_; }

 private:
  AdamOptions options_;
  std::int64_t step_count_ = 0;
  std::vector<std::vector<double>> exp_avg_;
  std::vector<std::vector<double>> exp_avg_sq_;
};

}  // namespace tensorlite
