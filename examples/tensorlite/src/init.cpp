// Seeded random generator and the Xavier / Kaiming parameter initialisers.
#include "tensorlite/init.h"

#include <cmath>
#include <cstddef>
#include <numbers>
#include <string>
#include <vector>

#include "tensorlite/error.h"

namespace tensorlite {

std::uint64_t Generator::next_u64() {
  state_ += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double Generator::uniform() {
  // The top 53 bits fill a double's mantissa exactly.
  return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
}

double Generator::normal() {
  // 1 - u lies in (0, 1], so the log is finite.
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

Fans compute_fans(const Shape& shape) {
  if (shape.size() < 2) {
    throw ShapeError("fan-in/fan-out need a weight of rank >= 2, got " + shape_to_string(shape));
  }
  std::int64_t receptive_field = 1;
  for (std::size_t i = 2; i < shape.size(); ++i) {
    receptive_field *= shape[i];
  }
  Fans fans{};
  // [out, in, kh, kw]: each output unit sees in * kh * kw inputs.
#if TENSORLITE_FAULT_INIT_FAN_IN
  fans.fan_in = shape[0] * receptive_field;
  fans.fan_out = shape[1] * receptive_field;
#else
  fans.fan_in = shape[1] * receptive_field;
  fans.fan_out = shape[0] * receptive_field;
#endif
  return fans;
}

double calculate_gain(Nonlinearity nonlinearity, double negative_slope) {
  switch (nonlinearity) {
    case Nonlinearity::Linear:
    case Nonlinearity::Sigmoid:
      return 1.0;
    case Nonlinearity::Tanh:
      return 5.0 / 3.0;
    case Nonlinearity::Relu:
      return std::numbers::sqrt2;
    case Nonlinearity::LeakyRelu:
      return std::sqrt(2.0 / (1.0 + negative_slope * negative_slope));
  }
  throw ArgumentError("calculate_gain: unknown nonlinearity");
}

namespace {

DType checked_floating(DType dtype, const char* who) {
  if (!is_floating(dtype)) {
    throw DTypeError(std::string(who) + " needs a floating dtype, got " +
                     std::string(dtype_name(dtype)));
  }
  return dtype;
}

double chosen_fan(const Shape& shape, FanMode mode) {
  const Fans fans = compute_fans(shape);
  const std::int64_t fan = mode == FanMode::FanIn ? fans.fan_in : fans.fan_out;
  if (fan <= 0) {
    throw ArgumentError("kaiming init of a weight with an empty fan: " + shape_to_string(shape));
  }
  return static_cast<double>(fan);
}

double fan_sum(const Shape& shape) {
  const Fans fans = compute_fans(shape);
  if (fans.fan_in + fans.fan_out <= 0) {
    throw ArgumentError("xavier init of an empty weight: " + shape_to_string(shape));
  }
  return static_cast<double>(fans.fan_in + fans.fan_out);
}

}  // namespace

Tensor uniform(const Shape& shape, double low, double high, Generator& gen, DType dtype) {
  if (!(low <= high)) {
    throw ArgumentError("uniform: low " + std::to_string(low) + " exceeds high " +
                        std::to_string(high));
  }
  std::vector<double> values(static_cast<std::size_t>(shape_numel(shape)));
  for (double& v : values) {
    v = low + (high - low) * gen.uniform();
  }
  return Tensor::from_vector(values, shape, checked_floating(dtype, "uniform"));
}

Tensor normal(const Shape& shape, double mean, double std, Generator& gen, DType dtype) {
  if (!(std >= 0.0)) {
    throw ArgumentError("normal: std must be >= 0, got " + std::to_string(std));
  }
  std::vector<double> values(static_cast<std::size_t>(shape_numel(shape)));
  for (double& v : values) {
    v = mean + std * gen.normal();
  }
  return Tensor::from_vector(values, shape, checked_floating(dtype, "normal"));
}

Tensor xavier_uniform(const Shape& shape, Generator& gen, double gain, DType dtype) {
  const double bound = gain * std::sqrt(6.0 / fan_sum(shape));
  return uniform(shape, -bound, bound, gen, dtype);
}

Tensor xavier_normal(const Shape& shape, Generator& gen, double gain, DType dtype) {
  return normal(shape, 0.0, gain * std::sqrt(2.0 / fan_sum(shape)), gen, dtype);
}

Tensor kaiming_uniform(const Shape& shape, Generator& gen, FanMode mode,
                       Nonlinearity nonlinearity, DType dtype) {
  // Var(U(-b, b)) = b^2 / 3, so b = gain * sqrt(3 / fan) gives variance gain^2 / fan.
  const double bound = calculate_gain(nonlinearity) * std::sqrt(3.0 / chosen_fan(shape, mode));
  return uniform(shape, -bound, bound, gen, dtype);
}

Tensor kaiming_normal(const Shape& shape, Generator& gen, FanMode mode,
                      Nonlinearity nonlinearity, DType dtype) {
  const double std = calculate_gain(nonlinearity) / std::sqrt(chosen_fan(shape, mode));
  return normal(shape, 0.0, std, gen, dtype);
}

}  // namespace tensorlite
