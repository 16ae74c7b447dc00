// Element types a Tensor can hold, type promotion, and float16 emulation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "tensorlite/error.h"

namespace tensorlite {

enum class DType : std::uint8_t { Float16, Float32, Float64, Int32, Int64 };

std::size_t dtype_size(DType dtype);
std::string_view dtype_name(DType dtype);
bool is_floating(DType dtype);

// The dtype a binary op computes in: any float beats any integer (int32 + float16 is
// float16, as in PyTorch), otherwise the wider type of the category wins.
DType promote_types(DType a, DType b);

// IEEE 754 binary16 <-> binary32 with round-to-nearest-even, subnormals, inf and NaN.
std::uint16_t float_to_half_bits(float value);
float half_bits_to_float(std::uint16_t bits);

// float16 storage type. Arithmetic happens in float (like GPUs without native half
// ALUs), so Half only converts.
struct Half {
  std::uint16_t bits = 0;

  Half() = default;
  explicit Half(float value) : bits(float_to_half_bits(value)) {}
  explicit operator float() const { return half_bits_to_float(bits); }

  static Half from_bits(std::uint16_t raw) {
    Half h;
    h.bits = raw;
    return h;
  }
};

template <typename T>
struct DTypeOf;
template <>
struct DTypeOf<Half> {
  static constexpr DType value = DType::Float16;
};
template <>
struct DTypeOf<float> {
  static constexpr DType value = DType::Float32;
};
template <>
struct DTypeOf<double> {
  static constexpr DType value = DType::Float64;
};
template <>
struct DTypeOf<std::int32_t> {
  static constexpr DType value = DType::Int32;
};
template <>
struct DTypeOf<std::int64_t> {
  static constexpr DType value = DType::Int64;
};
template <typename T>
inline constexpr DType dtype_of = DTypeOf<T>::value;

// The type kernels accumulate in: float16 widens to float, the rest compute natively.
template <typename T>
struct AccTypeOf {
  using type = T;
};
template <>
struct AccTypeOf<Half> {
  using type = float;
};
template <typename T>
using acc_t = typename AccTypeOf<T>::type;

template <typename T>
acc_t<T> to_acc(T value) {
  if constexpr (std::is_same_v<T, Half>) {
    return static_cast<float>(value);
  } else {
    return value;
  }
}

template <typename T, typename A>
T from_acc(A value) {
  if constexpr (std::is_same_v<T, Half>) {
    return Half(static_cast<float>(value));
  } else {
    return static_cast<T>(value);
  }
}

template <typename T>
double to_double(T value) {
  return static_cast<double>(to_acc(value));
}

// Integer targets truncate toward zero, like Tensor.to(int) in the big frameworks.
template <typename T>
T from_double(double value) {
  return from_acc<T>(value);
}

// Calls f.template operator()<T>() with the C++ element type of `dtype`, so a kernel is
// written once as a template lambda and instantiated for every dtype.
template <typename F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::Float16:
      return f.template operator()<Half>();
    case DType::Float32:
      return f.template operator()<float>();
    case DType::Float64:
      return f.template operator()<double>();
    case DType::Int32:
      return f.template operator()<std::int32_t>();
    case DType::Int64:
      return f.template operator()<std::int64_t>();
  }
  throw DTypeError("visit_dtype: unknown dtype");
}

}  // namespace tensorlite
