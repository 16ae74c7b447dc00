// Cross-entropy and mean-squared-error losses with mean reduction, and their gradients.
#include "tensorlite/loss.h"

#include <cstddef>
#include <string>
#include <vector>

#include "tensorlite/elementwise.h"
#include "tensorlite/error.h"
#include "tensorlite/reduction.h"
#include "tensorlite/softmax.h"

namespace tensorlite {

namespace {

// Classes live on axis 1 for both [N, C] and [N, C, L] logits (PyTorch convention).
constexpr std::int64_t kClassAxis = 1;

struct ClassTargets {
  std::int64_t batch;      // N
  std::int64_t classes;    // C
  std::int64_t positions;  // L, 1 for [N, C] logits
  std::vector<std::int64_t> ids;  // [N * L], row-major over (n, l)

  std::int64_t predictions() const { return batch * positions; }
  // Flat index of logit (n, c, l) in a contiguous [N, C, L] layout.
  std::size_t logit(std::int64_t n, std::int64_t c, std::int64_t l) const {
    return static_cast<std::size_t>((n * classes + c) * positions + l);
  }
};

ClassTargets read_targets(const Tensor& logits, const Tensor& targets) {
  if (logits.dim() != 2 && logits.dim() != 3) {
    throw ShapeError("cross_entropy expects logits [N, C] or [N, C, L], got " +
                     shape_to_string(logits.shape()));
  }
  if (!is_floating(logits.dtype())) {
    throw DTypeError("cross_entropy needs floating logits");
  }
  if (targets.dtype() != DType::Int32 && targets.dtype() != DType::Int64) {
    throw DTypeError("cross_entropy targets must be int32 or int64 class ids, got " +
                     std::string(dtype_name(targets.dtype())));
  }
  ClassTargets t{logits.size(0), logits.size(kClassAxis), logits.dim() == 3 ? logits.size(2) : 1,
                 {}};
  const Shape expected = logits.dim() == 3 ? Shape{t.batch, t.positions} : Shape{t.batch};
  if (targets.shape() != expected) {
    throw ShapeError("cross_entropy: targets have shape " + shape_to_string(targets.shape()) +
                     ", expected " + shape_to_string(expected));
  }
  if (t.predictions() == 0) {
    throw ArgumentError("cross_entropy of an empty batch is undefined");
  }
  for (const double id : targets.to_vector()) {
    const auto cls = static_cast<std::int64_t>(id);
    if (cls < 0 || cls >= t.classes) {
      throw ArgumentError("cross_entropy: class id " + std::to_string(cls) + " outside [0, " +
                          std::to_string(t.classes) + ")");
    }
    t.ids.push_back(cls);
  }
  return t;
}

}  // namespace

Tensor cross_entropy(const Tensor& logits, const Tensor& targets) {
  const ClassTargets t = read_targets(logits, targets);
  // log_softmax rather than log(softmax): stays finite when a probability underflows.
  const std::vector<double> log_probs = log_softmax(logits, kClassAxis).to_vector();
  double total = 0.0;
  for (std::int64_t n = 0; n < t.batch; ++n) {
    for (std::int64_t l = 0; l < t.positions; ++l) {
      const std::int64_t cls = t.ids[static_cast<std::size_t>(n * t.positions + l)];
      total -= log_probs[t.logit(n, cls, l)];
    }
  }
  return Tensor::scalar(total / static_cast<double>(t.predictions()), logits.dtype());
}

Tensor cross_entropy_backward(const Tensor& grad_loss, const Tensor& logits,
                              const Tensor& targets) {
  const ClassTargets t = read_targets(logits, targets);
  if (grad_loss.numel() != 1) {
    throw ShapeError("cross_entropy_backward: the loss gradient must be a scalar, got shape " +
                     shape_to_string(grad_loss.shape()));
  }
  // d loss / d logit = softmax(logit) - one_hot(target), per prediction.
#if TENSORLITE_FAULT_CE_SOFTMAX_AXIS
  std::vector<double> grad = softmax(logits).to_vector();
#else
  std::vector<double> grad = softmax(logits, kClassAxis).to_vector();
#endif
  // The loss is a mean over N * L predictions, so each one's gradient carries 1 / (N L).
#if TENSORLITE_FAULT_CE_GRAD_SCALE
  const double scale = grad_loss.item();
#else
  const double scale = grad_loss.item() / static_cast<double>(t.predictions());
#endif
  for (std::int64_t n = 0; n < t.batch; ++n) {
    for (std::int64_t l = 0; l < t.positions; ++l) {
      const std::int64_t cls = t.ids[static_cast<std::size_t>(n * t.positions + l)];
      grad[t.logit(n, cls, l)] -= 1.0;
    }
  }
  for (double& g : grad) {
    g *= scale;
  }
  return Tensor::from_vector(grad, logits.shape(), logits.dtype());
}

Tensor mse_loss(const Tensor& prediction, const Tensor& target) {
  if (prediction.shape() != target.shape()) {
    // Broadcasting here is almost always a bug ([N] vs [N, 1] squares to [N, N]).
    throw ShapeError("mse_loss: prediction " + shape_to_string(prediction.shape()) +
                     " and target " + shape_to_string(target.shape()) + " differ");
  }
  const Tensor diff = sub(prediction, target);
  return mean(mul(diff, diff));
}

Tensor mse_loss_backward(const Tensor& grad_loss, const Tensor& prediction,
                         const Tensor& target) {
  if (prediction.shape() != target.shape()) {
    throw ShapeError("mse_loss_backward: prediction " + shape_to_string(prediction.shape()) +
                     " and target " + shape_to_string(target.shape()) + " differ");
  }
  const double scale = 2.0 * grad_loss.item() / static_cast<double>(prediction.numel());
  return mul_scalar(sub(prediction, target), scale);
}

}  // namespace tensorlite
