// Direct NCHW 2-D convolution and its backward (input, weight and bias gradients).
#include "tensorlite/conv2d.h"

#include <string>
#include <vector>

#include "tensorlite/error.h"

namespace tensorlite {

namespace {

// Sizes of one convolution, validated once and shared by forward and backward.
struct ConvGeometry {
  std::int64_t batch, in_channels, height, width;
  std::int64_t out_channels, kernel_h, kernel_w;
  std::int64_t out_h, out_w;
};

void check_params(const Conv2dParams& p) {
  if (p.stride_h < 1 || p.stride_w < 1) {
    throw ArgumentError("conv2d: stride must be >= 1");
  }
  if (p.pad_h < 0 || p.pad_w < 0) {
    throw ArgumentError("conv2d: padding must be >= 0");
  }
}

ConvGeometry geometry(const Tensor& input, const Tensor& weight, const Conv2dParams& p) {
  check_params(p);
  if (input.dim() != 4 || weight.dim() != 4) {
    throw ShapeError("conv2d expects input [N, C, H, W] and weight [O, C, KH, KW], got " +
                     shape_to_string(input.shape()) + " and " + shape_to_string(weight.shape()));
  }
  if (input.size(1) != weight.size(1)) {
    throw ShapeError("conv2d: input has " + std::to_string(input.size(1)) +
                     " channels, weight expects " + std::to_string(weight.size(1)));
  }
  ConvGeometry g{input.size(0), input.size(1), input.size(2), input.size(3), weight.size(0),
                 weight.size(2), weight.size(3), 0, 0};
  g.out_h = conv_output_size(g.height, g.kernel_h, p.stride_h, p.pad_h);
  g.out_w = conv_output_size(g.width, g.kernel_w, p.stride_w, p.pad_w);
  return g;
}

// Dense float64 copy: the CPU reference path accumulates in double whatever the dtype.
std::vector<double> dense(const Tensor& t) { return t.to_vector(); }

}  // namespace

std::int64_t conv_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                              std::int64_t pad) {
  const std::int64_t span = in + 2 * pad - kernel;
  if (kernel < 1 || span < 0) {
    throw ShapeError("conv2d: kernel of size " + std::to_string(kernel) +
                     " does not fit an input of size " + std::to_string(in) + " with padding " +
                     std::to_string(pad));
  }
  return span / stride + 1;
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias,
              const Conv2dParams& params) {
  const ConvGeometry g = geometry(input, weight, params);
  if (bias.defined() && (bias.dim() != 1 || bias.size(0) != g.out_channels)) {
    throw ShapeError("conv2d: bias must have shape [" + std::to_string(g.out_channels) + "], got " +
                     shape_to_string(bias.shape()));
  }
  const std::vector<double> x = dense(input);
  const std::vector<double> w = dense(weight);
  const std::vector<double> b = bias.defined() ? dense(bias) : std::vector<double>();
  std::vector<double> y(static_cast<std::size_t>(g.batch * g.out_channels * g.out_h * g.out_w));
  std::size_t out_index = 0;
  for (std::int64_t n = 0; n < g.batch; ++n) {
    for (std::int64_t o = 0; o < g.out_channels; ++o) {
      for (std::int64_t oh = 0; oh < g.out_h; ++oh) {
        for (std::int64_t ow = 0; ow < g.out_w; ++ow) {
          double acc = b.empty() ? 0.0 : b[static_cast<std::size_t>(o)];
          for (std::int64_t c = 0; c < g.in_channels; ++c) {
            for (std::int64_t kh = 0; kh < g.kernel_h; ++kh) {
              const std::int64_t ih = oh * params.stride_h - params.pad_h + kh;
              if (ih < 0 || ih >= g.height) {
                continue;  // zero padding contributes nothing
              }
              for (std::int64_t kw = 0; kw < g.kernel_w; ++kw) {
                const std::int64_t iw = ow * params.stride_w - params.pad_w + kw;
                if (iw < 0 || iw >= g.width) {
                  continue;
                }
                acc += x[static_cast<std::size_t>(((n * g.in_channels + c) * g.height + ih) *
                                                      g.width + iw)] *
                       w[static_cast<std::size_t>(((o * g.in_channels + c) * g.kernel_h + kh) *
                                                      g.kernel_w + kw)];
              }
            }
          }
          y[out_index++] = acc;
        }
      }
    }
  }
  return Tensor::from_vector(y, {g.batch, g.out_channels, g.out_h, g.out_w},
                             promote_types(input.dtype(), weight.dtype()));
}

Conv2dGrads conv2d_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                            bool has_bias, const Conv2dParams& params) {
  const ConvGeometry g = geometry(input, weight, params);
  const Shape expected{g.batch, g.out_channels, g.out_h, g.out_w};
  if (grad_output.shape() != expected) {
    throw ShapeError("conv2d_backward: grad_output has shape " +
                     shape_to_string(grad_output.shape()) + ", expected " +
                     shape_to_string(expected));
  }
  const std::vector<double> dy = dense(grad_output);
  const std::vector<double> x = dense(input);
  const std::vector<double> w = dense(weight);
  std::vector<double> dx(x.size(), 0.0);
  std::vector<double> dw(w.size(), 0.0);
  std::vector<double> db(static_cast<std::size_t>(g.out_channels), 0.0);

  const auto x_at = [&](std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t wi) {
    return static_cast<std::size_t>(((n * g.in_channels + c) * g.height + h) * g.width + wi);
  };
  const auto w_at = [&](std::int64_t o, std::int64_t c, std::int64_t kh, std::int64_t kw) {
    return static_cast<std::size_t>(((o * g.in_channels + c) * g.kernel_h + kh) * g.kernel_w +
                                    kw);
  };

  const auto dy_at = [&](std::int64_t n, std::int64_t o, std::int64_t oh, std::int64_t ow) {
    return dy[static_cast<std::size_t>(((n * g.out_channels + o) * g.out_h + oh) * g.out_w + ow)];
  };

  // Weight and bias gradients: correlate the output gradient with the input it saw.
  for (std::int64_t n = 0; n < g.batch; ++n) {
    for (std::int64_t o = 0; o < g.out_channels; ++o) {
      for (std::int64_t oh = 0; oh < g.out_h; ++oh) {
        for (std::int64_t ow = 0; ow < g.out_w; ++ow) {
          const double go = dy_at(n, o, oh, ow);
          db[static_cast<std::size_t>(o)] += go;
          for (std::int64_t c = 0; c < g.in_channels; ++c) {
            for (std::int64_t kh = 0; kh < g.kernel_h; ++kh) {
              const std::int64_t ih = oh * params.stride_h - params.pad_h + kh;
              if (ih < 0 || ih >= g.height) {
                continue;
              }
              for (std::int64_t kw = 0; kw < g.kernel_w; ++kw) {
                const std::int64_t iw = ow * params.stride_w - params.pad_w + kw;
                if (iw >= 0 && iw < g.width) {
                  dw[w_at(o, c, kh, kw)] += go * x[x_at(n, c, ih, iw)];
                }
              }
            }
          }
        }
      }
    }
  }

  // Input gradient: scatter each output gradient back through the weights (a transposed
  // convolution). It must address the same padded pixel the forward read.
  for (std::int64_t n = 0; n < g.batch; ++n) {
    for (std::int64_t o = 0; o < g.out_channels; ++o) {
      for (std::int64_t oh = 0; oh < g.out_h; ++oh) {
        for (std::int64_t ow = 0; ow < g.out_w; ++ow) {
          const double go = dy_at(n, o, oh, ow);
          for (std::int64_t c = 0; c < g.in_channels; ++c) {
            for (std::int64_t kh = 0; kh < g.kernel_h; ++kh) {
#if TENSORLITE_FAULT_CONV_GRAD_PADDING
              const std::int64_t ih = oh * params.stride_h + params.pad_h + kh;
#else
              const std::int64_t ih = oh * params.stride_h - params.pad_h + kh;
#endif
              if (ih < 0 || ih >= g.height) {
                continue;
              }
              for (std::int64_t kw = 0; kw < g.kernel_w; ++kw) {
                const std::int64_t iw = ow * params.stride_w - params.pad_w + kw;
                if (iw >= 0 && iw < g.width) {
                  dx[x_at(n, c, ih, iw)] += go * w[w_at(o, c, kh, kw)];
                }
              }
            }
          }
        }
      }
    }
  }
  Conv2dGrads grads{Tensor::from_vector(dx, input.shape(), input.dtype()),
                    Tensor::from_vector(dw, weight.shape(), weight.dtype()), Tensor()};
  if (has_bias) {
    grads.grad_bias = Tensor::from_vector(db, {g.out_channels}, weight.dtype());
  }
  return grads;
}

}  // namespace tensorlite
