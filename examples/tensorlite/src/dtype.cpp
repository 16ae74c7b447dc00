// Dtype properties, type promotion, and the float16 <-> float32 conversions.
#include "tensorlite/dtype.h"

#include <bit>
#include <cmath>

namespace tensorlite {

std::size_t dtype_size(DType dtype) {
  return visit_dtype(dtype, []<typename T>() { return sizeof(T); });
}

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Float16:
      return "float16";
    case DType::Float32:
      return "float32";
    case DType::Float64:
      return "float64";
    case DType::Int32:
      return "int32";
    case DType::Int64:
      return "int64";
  }
  return "unknown";
}

bool is_floating(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::Float32 || dtype == DType::Float64;
}

namespace {

// Width order within a category; the enum order is not relied upon.
int float_rank(DType dtype) {
  return dtype == DType::Float16 ? 0 : dtype == DType::Float32 ? 1 : 2;
}

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) {
    return a;
  }
  const bool fa = is_floating(a);
  const bool fb = is_floating(b);
  if (fa && fb) {
    return float_rank(a) >= float_rank(b) ? a : b;
  }
  if (fa != fb) {
    return fa ? a : b;
  }
  return (a == DType::Int64 || b == DType::Int64) ? DType::Int64 : DType::Int32;
}

std::uint16_t float_to_half_bits(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exponent = (x >> 23) & 0xffu;
  std::uint32_t mantissa = x & 0x7fffffu;

  if (exponent == 0xffu) {
    // Inf stays inf; NaN keeps its top payload bits and is forced quiet so it stays NaN.
    const std::uint32_t payload = mantissa != 0 ? (0x200u | (mantissa >> 13)) : 0u;
    return static_cast<std::uint16_t>(sign | 0x7c00u | payload);
  }
  const std::int32_t half_exponent = static_cast<std::int32_t>(exponent) - 127 + 15;
  if (half_exponent >= 0x1f) {
    return static_cast<std::uint16_t>(sign | 0x7c00u);  // overflow rounds to inf
  }
  if (half_exponent <= 0) {
    // Half subnormal: value = m * 2^-24. Below 2^-25 even the smallest one rounds to 0.
    if (half_exponent < -10) {
      return static_cast<std::uint16_t>(sign);
    }
    mantissa |= 0x800000u;  // make the implicit leading 1 explicit
    const int shift = 14 - half_exponent;
    std::uint32_t half_mantissa = mantissa >> shift;
    const std::uint32_t remainder = mantissa & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (half_mantissa & 1u) != 0)) {
      ++half_mantissa;  // a carry into bit 10 correctly yields the smallest normal
    }
    return static_cast<std::uint16_t>(sign | half_mantissa);
  }
  std::uint32_t bits = sign | (static_cast<std::uint32_t>(half_exponent) << 10) | (mantissa >> 13);
  const std::uint32_t remainder = mantissa & 0x1fffu;
  if (remainder > 0x1000u || (remainder == 0x1000u && (bits & 1u) != 0)) {
    ++bits;  // a carry out of the mantissa bumps the exponent, up to inf: still correct
  }
  return static_cast<std::uint16_t>(bits);
}

float half_bits_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 0x1f) {
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  }
  return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

}  // namespace tensorlite
