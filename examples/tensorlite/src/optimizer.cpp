// Parameter and gradient checks shared by every optimizer.
#include <string>
#include <utility>

#include "tensorlite/error.h"
#include "tensorlite/optim.h"

namespace tensorlite {

Optimizer::Optimizer(std::vector<Tensor> params) : params_(std::move(params)) {
  for (std::size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].defined()) {
      throw ArgumentError("optimizer: parameter " + std::to_string(i) + " is undefined");
    }
    if (!is_floating(params_[i].dtype())) {
      throw DTypeError("optimizer: parameter " + std::to_string(i) + " is " +
                       std::string(dtype_name(params_[i].dtype())) + ", not floating");
    }
  }
}

void Optimizer::check_grads(const std::vector<Tensor>& grads) const {
  if (grads.size() != params_.size()) {
    throw ArgumentError("optimizer: " + std::to_string(grads.size()) + " gradients for " +
                        std::to_string(params_.size()) + " parameters");
  }
  for (std::size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined() || grads[i].shape() != params_[i].shape()) {
      throw ShapeError("optimizer: gradient " + std::to_string(i) + " has shape " +
                       (grads[i].defined() ? shape_to_string(grads[i].shape()) : "undefined") +
                       ", parameter has " + shape_to_string(params_[i].shape()));
    }
  }
}

}  // namespace tensorlite
