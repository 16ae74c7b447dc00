// Layer normalization over the last dimension: forward with saved statistics, and backward.
#include "tensorlite/layernorm.h"

#include <cmath>
#include <string>
#include <vector>

#include "tensorlite/error.h"

namespace tensorlite {

namespace {

void check_affine(const Tensor& param, std::int64_t features, const char* name) {
  if (param.defined() && param.shape() != Shape{features}) {
    throw ShapeError(std::string("layer_norm: ") + name + " must have shape [" +
                     std::to_string(features) + "], got " + shape_to_string(param.shape()));
  }
}

std::int64_t feature_count(const Tensor& x) {
  if (x.dim() < 1 || x.size(-1) == 0) {
    throw ShapeError("layer_norm needs a non-empty last dimension, got shape " +
                     shape_to_string(x.shape()));
  }
  return x.size(-1);
}

Shape stats_shape(const Tensor& x) { return Shape(x.shape().begin(), x.shape().end() - 1); }

// Statistics are kept in float32 even for float16 inputs, as mixed-precision kernels do.
DType stats_dtype(DType dtype) { return dtype == DType::Float64 ? DType::Float64 : DType::Float32; }

DType output_dtype(DType dtype) { return is_floating(dtype) ? dtype : DType::Float32; }

}  // namespace

LayerNormResult layer_norm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
  const std::int64_t features = feature_count(x);
  check_affine(gamma, features, "gamma");
  check_affine(beta, features, "beta");
  if (!(eps >= 0.0)) {
    throw ArgumentError("layer_norm: eps must be >= 0, got " + std::to_string(eps));
  }
  const std::vector<double> xs = x.to_vector();
  const std::vector<double> gs = gamma.defined() ? gamma.to_vector() : std::vector<double>();
  const std::vector<double> bs = beta.defined() ? beta.to_vector() : std::vector<double>();
  const std::int64_t rows = x.numel() / features;
  std::vector<double> ys(xs.size());
  std::vector<double> means(static_cast<std::size_t>(rows));
  std::vector<double> rstds(static_cast<std::size_t>(rows));
  const auto n = static_cast<double>(features);
  for (std::int64_t r = 0; r < rows; ++r) {
    const double* row = xs.data() + r * features;
    double mean = 0.0;
    for (std::int64_t j = 0; j < features; ++j) {
      mean += row[j];
    }
    mean /= n;
    // Two-pass variance: sum of squared deviations, no catastrophic E[x^2] - E[x]^2.
    double var = 0.0;
    for (std::int64_t j = 0; j < features; ++j) {
      var += (row[j] - mean) * (row[j] - mean);
    }
    var /= n;
    // eps sits under the square root so a constant row (var = 0) stays finite.
#if TENSORLITE_FAULT_LAYERNORM_EPS
    const double rstd = 1.0 / (std::sqrt(var) + eps);
#else
    const double rstd = 1.0 / std::sqrt(var + eps);
#endif
    means[static_cast<std::size_t>(r)] = mean;
    rstds[static_cast<std::size_t>(r)] = rstd;
    for (std::int64_t j = 0; j < features; ++j) {
      const double normalized = (row[j] - mean) * rstd;
      const double scale = gs.empty() ? 1.0 : gs[static_cast<std::size_t>(j)];
      const double shift = bs.empty() ? 0.0 : bs[static_cast<std::size_t>(j)];
      ys[static_cast<std::size_t>(r * features + j)] = normalized * scale + shift;
    }
  }
  const DType dtype = output_dtype(x.dtype());
  return {Tensor::from_vector(ys, x.shape(), dtype),
          Tensor::from_vector(means, stats_shape(x), stats_dtype(dtype)),
          Tensor::from_vector(rstds, stats_shape(x), stats_dtype(dtype))};
}

LayerNormGrads layer_norm_backward(const Tensor& grad, const Tensor& x, const Tensor& gamma,
                                   const Tensor& beta, const LayerNormResult& saved) {
  const std::int64_t features = feature_count(x);
  check_affine(gamma, features, "gamma");
  check_affine(beta, features, "beta");
  if (grad.shape() != x.shape()) {
    throw ShapeError("layer_norm_backward: gradient shape " + shape_to_string(grad.shape()) +
                     " differs from input shape " + shape_to_string(x.shape()));
  }
  const std::vector<double> gy = grad.to_vector();
  const std::vector<double> xs = x.to_vector();
  const std::vector<double> means = saved.mean.to_vector();
  const std::vector<double> rstds = saved.rstd.to_vector();
  const std::vector<double> gs = gamma.defined() ? gamma.to_vector() : std::vector<double>();
  const std::int64_t rows = x.numel() / features;
  std::vector<double> dx(xs.size());
  std::vector<double> dgamma(static_cast<std::size_t>(features), 0.0);
  std::vector<double> dbeta(static_cast<std::size_t>(features), 0.0);
  std::vector<double> xhat(static_cast<std::size_t>(features));
  std::vector<double> dxhat(static_cast<std::size_t>(features));
  const auto n = static_cast<double>(features);
  for (std::int64_t r = 0; r < rows; ++r) {
    const double mean = means[static_cast<std::size_t>(r)];
    const double rstd = rstds[static_cast<std::size_t>(r)];
    double sum_dxhat = 0.0;
    double sum_dxhat_xhat = 0.0;
    for (std::int64_t j = 0; j < features; ++j) {
      const auto at = static_cast<std::size_t>(r * features + j);
      const auto jj = static_cast<std::size_t>(j);
      xhat[jj] = (xs[at] - mean) * rstd;
      dxhat[jj] = gy[at] * (gs.empty() ? 1.0 : gs[jj]);
      sum_dxhat += dxhat[jj];
      sum_dxhat_xhat += dxhat[jj] * xhat[jj];
      dgamma[jj] += gy[at] * xhat[jj];
      dbeta[jj] += gy[at];
    }
    // dx = rstd / D * (D dxhat - sum(dxhat) - xhat sum(dxhat xhat)): the mean and the
    // variance both depend on every element of the row, hence the two correction terms.
    for (std::int64_t j = 0; j < features; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      dx[static_cast<std::size_t>(r * features + j)] =
          rstd / n * (n * dxhat[jj] - sum_dxhat - xhat[jj] * sum_dxhat_xhat);
    }
  }
  const DType dtype = output_dtype(x.dtype());
  LayerNormGrads grads{Tensor::from_vector(dx, x.shape(), dtype), Tensor(), Tensor()};
  if (gamma.defined()) {
    grads.grad_gamma = Tensor::from_vector(dgamma, gamma.shape(), gamma.dtype());
  }
  if (beta.defined()) {
    grads.grad_beta = Tensor::from_vector(dbeta, beta.shape(), beta.dtype());
  }
  return grads;
}

}  // namespace tensorlite
