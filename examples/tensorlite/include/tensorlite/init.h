// Seeded random generator and parameter initialisers (Glorot & Bengio 2010, He et al. 2015).
#pragma once

#include <cstdint>

#include "tensorlite/shape.h"
#include "tensorlite/tensor.h"

namespace tensorlite {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, seedable, identical on every platform,
// unlike std:: distributions whose output differs between standard libraries.
class Generator {
 public:
  explicit Generator(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64();
  double uniform();  // [0, 1) with 53 random bits
  double normal();   // standard normal, Box-Muller

 private:
  std::uint64_t state_;
};

// Weights are laid out [out_features, in_features, *receptive_field] (PyTorch layout).
struct Fans {
  std::int64_t fan_in;
  std::int64_t fan_out;
};
Fans compute_fans(const Shape& shape);  // throws ShapeError below rank 2

enum class FanMode { FanIn, FanOut };
enum class Nonlinearity { Linear, Relu, LeakyRelu, Tanh, Sigmoid };

// Recommended gain for a nonlinearity (sqrt(2) for relu, 5/3 for tanh...);
// `negative_slope` is only used by LeakyRelu.
double calculate_gain(Nonlinearity nonlinearity, double negative_slope = 0.01);

Tensor uniform(const Shape& shape, double low, double high, Generator& gen,
               DType dtype = DType::Float32);
Tensor normal(const Shape& shape, double mean, double std, Generator& gen,
              DType dtype = DType::Float32);

// U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out)).
Tensor xavier_uniform(const Shape& shape, Generator& gen, double gain = 1.0,
                      DType dtype = DType::Float32);
// N(0, s^2) with s = gain * sqrt(2 / (fan_in + fan_out)).
Tensor xavier_normal(const Shape& shape, Generator& gen, double gain = 1.0,
                     DType dtype = DType::Float32);
// U(-b, b) with b = gain * sqrt(3 / fan), fan chosen by `mode`.
Tensor kaiming_uniform(const Shape& shape, Generator& gen, FanMode mode = FanMode::FanIn,
                       Nonlinearity nonlinearity = Nonlinearity::Relu,
                       DType dtype = DType::Float32);
// N(0, s^2) with s = gain / sqrt(fan).
Tensor kaiming_normal(const Shape& shape, Generator& gen, FanMode mode = FanMode::FanIn,
                      Nonlinearity nonlinearity = Nonlinearity::Relu,
                      DType dtype = DType::Float32);

}  // namespace tensorlite
