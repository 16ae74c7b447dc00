// Tensor construction, element access, copies and dtype conversion.
#include "tensorlite/tensor.h"

#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "kernel_utils.h"
#include "tensorlite/error.h"

namespace tensorlite {

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Strides strides,
               std::int64_t offset)
    : storage_(std::move(storage)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset) {}

Tensor Tensor::empty(const Shape& shape, DType dtype) {
  for (const std::int64_t d : shape) {
    if (d < 0) {
      throw ShapeError("negative dimension in shape " + shape_to_string(shape));
    }
  }
  auto storage = std::make_shared<Storage>();
  storage->bytes.resize(static_cast<std::size_t>(shape_numel(shape)) * dtype_size(dtype));
  return Tensor(std::move(storage), dtype, shape, contiguous_strides(shape), 0);
}

Tensor Tensor::zeros(const Shape& shape, DType dtype) { return full(shape, 0.0, dtype); }

Tensor Tensor::ones(const Shape& shape, DType dtype) { return full(shape, 1.0, dtype); }

Tensor Tensor::full(const Shape& shape, double value, DType dtype) {
  Tensor t = empty(shape, dtype);
  t.fill_(value);
  return t;
}

Tensor Tensor::scalar(double value, DType dtype) { return full({}, value, dtype); }

Tensor Tensor::from_vector(const std::vector<double>& values, const Shape& shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  if (static_cast<std::int64_t>(values.size()) != t.numel()) {
    throw ShapeError(std::to_string(values.size()) + " values do not fill shape " +
                     shape_to_string(shape));
  }
  visit_dtype(dtype, [&]<typename T>() {
    T* p = t.data<T>();
    for (std::size_t i = 0; i < values.size(); ++i) {
      p[i] = from_double<T>(values[i]);
    }
  });
  return t;
}

Tensor Tensor::arange(std::int64_t n, DType dtype) {
  std::vector<double> values(static_cast<std::size_t>(n > 0 ? n : 0));
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<double>(i);
  }
  return from_vector(values, {n > 0 ? n : 0}, dtype);
}

std::int64_t Tensor::size(std::int64_t axis) const {
  return shape_[static_cast<std::size_t>(normalize_axis(axis, dim()))];
}

std::int64_t Tensor::stride(std::int64_t axis) const {
  return strides_[static_cast<std::size_t>(normalize_axis(axis, dim()))];
}

bool Tensor::is_contiguous() const {
  if (numel() == 0) {
    return true;
  }
  std::int64_t expected = 1;
  for (std::size_t i = shape_.size(); i-- > 0;) {
    // Size-1 dimensions are never stepped over, so their stride does not matter.
    if (shape_[i] != 1 && strides_[i] != expected) {
      return false;
    }
    expected *= shape_[i];
  }
  return true;
}

void Tensor::check_element_type(DType requested) const {
  check_defined("data");
  if (requested != dtype_) {
    throw DTypeError("requested " + std::string(dtype_name(requested)) +
                     " data from a " + std::string(dtype_name(dtype_)) + " tensor");
  }
}

void Tensor::check_defined(const char* what) const {
  if (!defined()) {
    throw ArgumentError(std::string(what) + ": the tensor is undefined");
  }
}

std::int64_t Tensor::element_offset(const std::vector<std::int64_t>& index) const {
  if (static_cast<std::int64_t>(index.size()) != dim()) {
    throw ArgumentError("index of rank " + std::to_string(index.size()) + " for a tensor of rank " +
                        std::to_string(dim()));
  }
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < index.size(); ++i) {
    const std::int64_t idx = index[i] < 0 ? index[i] + shape_[i] : index[i];
    if (idx < 0 || idx >= shape_[i]) {
      throw ArgumentError("index " + std::to_string(index[i]) + " out of range for dimension " +
                          std::to_string(i) + " of size " + std::to_string(shape_[i]));
    }
    offset += idx * strides_[i];
  }
  return offset;
}

double Tensor::item() const {
  check_defined("item");
  if (numel() != 1) {
    throw ShapeError("item() needs exactly one element, shape is " + shape_to_string(shape_));
  }
  return to_vector().front();
}

double Tensor::at(const std::vector<std::int64_t>& index) const {
  check_defined("at");
  const std::int64_t offset = element_offset(index);
  return visit_dtype(dtype_, [&]<typename T>() { return to_double(data<T>()[offset]); });
}

void Tensor::set(const std::vector<std::int64_t>& index, double value) {
  check_defined("set");
  const std::int64_t offset = element_offset(index);
  visit_dtype(dtype_, [&]<typename T>() { data<T>()[offset] = from_double<T>(value); });
}

std::vector<double> Tensor::to_vector() const {
  check_defined("to_vector");
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(numel()));
  visit_dtype(dtype_, [&]<typename T>() {
    const T* p = data<T>();
    detail::for_each_offset<1>(shape_, {strides_}, [&](const std::array<std::int64_t, 1>& off) {
      values.push_back(to_double(p[off[0]]));
    });
  });
  return values;
}

Tensor Tensor::contiguous() const {
  check_defined("contiguous");
  return is_contiguous() ? *this : clone();
}

Tensor Tensor::clone() const {
  check_defined("clone");
  Tensor out = empty(shape_, dtype_);
  out.copy_(*this);
  return out;
}

Tensor Tensor::to(DType dtype) const {
  check_defined("to");
  if (dtype == dtype_) {
    return *this;
  }
  Tensor out = empty(shape_, dtype);
  out.copy_(*this);
  return out;
}

void Tensor::fill_(double value) {
  check_defined("fill_");
  visit_dtype(dtype_, [&]<typename T>() {
    T* p = data<T>();
    const T v = from_double<T>(value);
    detail::for_each_offset<1>(shape_, {strides_},
                               [&](const std::array<std::int64_t, 1>& off) { p[off[0]] = v; });
  });
}

void Tensor::copy_(const Tensor& src) {
  check_defined("copy_");
  src.check_defined("copy_");
  if (src.shape_ != shape_) {
    throw ShapeError("copy_ from shape " + shape_to_string(src.shape_) + " into " +
                     shape_to_string(shape_));
  }
  visit_dtype(dtype_, [&]<typename D>() {
    visit_dtype(src.dtype_, [&]<typename S>() {
      D* dst = data<D>();
      const S* from = src.data<S>();
      const std::array<Strides, 2> strides = {strides_, src.strides_};
      detail::for_each_offset<2>(shape_, strides, [&](const std::array<std::int64_t, 2>& off) {
        // Via the source's accumulation type; float64 -> float16 thus rounds twice,
        // which can differ from direct rounding only in the last half ulp.
        dst[off[0]] = from_acc<D>(to_acc(from[off[1]]));
      });
    });
  });
}

}  // namespace tensorlite
