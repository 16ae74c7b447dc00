// Tensor: a typed, strided view onto shared storage (the core data model of tensorlite).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "tensorlite/dtype.h"
#include "tensorlite/shape.h"

namespace tensorlite {

// Raw bytes shared by a tensor and all views of it.
struct Storage {
  std::vector<std::byte> bytes;
};

// A tensor is (storage, dtype, shape, strides, offset). Views such as transpose or slice
// share storage and only change the last three, so they cost no copy; kernels walk the
// strides (see src/kernel_utils.h) or call contiguous() first.
class Tensor {
 public:
  // An undefined tensor, used where an argument is optional (e.g. conv2d without bias).
  Tensor() = default;

  static Tensor empty(const Shape& shape, DType dtype = DType::Float32);
  static Tensor zeros(const Shape& shape, DType dtype = DType::Float32);
  static Tensor ones(const Shape& shape, DType dtype = DType::Float32);
  static Tensor full(const Shape& shape, double value, DType dtype = DType::Float32);
  static Tensor scalar(double value, DType dtype = DType::Float32);
  // `values` in row-major order; their count must equal the shape's element count.
  static Tensor from_vector(const std::vector<double>& values, const Shape& shape,
                            DType dtype = DType::Float32);
  static Tensor arange(std::int64_t n, DType dtype = DType::Float32);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  std::int64_t storage_offset() const { return offset_; }
  std::int64_t dim() const { return static_cast<std::int64_t>(shape_.size()); }
  std::int64_t size(std::int64_t axis) const;
  std::int64_t stride(std::int64_t axis) const;
  std::int64_t numel() const { return shape_numel(shape_); }
  bool is_contiguous() const;
  bool shares_storage_with(const Tensor& other) const { return storage_ == other.storage_; }

  // Typed pointer to the first element of this view (storage + offset). Throws DTypeError
  // when T is not this tensor's element type.
  template <typename T>
  T* data() {
    check_element_type(dtype_of<T>);
    return reinterpret_cast<T*>(storage_->bytes.data()) + offset_;
  }
  template <typename T>
  const T* data() const {
    check_element_type(dtype_of<T>);
    return reinterpret_cast<const T*>(storage_->bytes.data()) + offset_;
  }

  // Element access for tests and glue code (slow path: one dtype dispatch per call).
  double item() const;
  double at(const std::vector<std::int64_t>& index) const;
  void set(const std::vector<std::int64_t>& index, double value);
  std::vector<double> to_vector() const;

  // Copies: contiguous() copies only when needed, clone() always, to() when the dtype differs.
  Tensor contiguous() const;
  Tensor clone() const;
  Tensor to(DType dtype) const;
  void fill_(double value);
  // Copies `src` (same shape, any dtype) into this tensor's elements in place.
  void copy_(const Tensor& src);

  // Views (src/views.cpp): share storage with *this.
  Tensor transpose(std::int64_t axis0, std::int64_t axis1) const;
  Tensor permute(const std::vector<std::int64_t>& order) const;
  // A view when this tensor is contiguous, a copy otherwise; one dimension may be -1.
  Tensor reshape(const Shape& shape) const;
  // Like reshape but never copies: throws ShapeError on a non-contiguous tensor.
  Tensor view(const Shape& shape) const;
  // Python-style slicing [start:end:step] along `axis`; start/end clamp, negatives wrap.
  Tensor slice(std::int64_t axis, std::int64_t start, std::int64_t end,
               std::int64_t step = 1) const;
  Tensor select(std::int64_t axis, std::int64_t index) const;
  Tensor unsqueeze(std::int64_t axis) const;
  // Removes `axis` when its size is 1, otherwise returns the tensor unchanged (PyTorch rule).
  Tensor squeeze(std::int64_t axis) const;
  Tensor expand(const Shape& shape) const;

 private:
  Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Strides strides,
         std::int64_t offset);

  void check_element_type(DType requested) const;
  void check_defined(const char* what) const;
  std::int64_t element_offset(const std::vector<std::int64_t>& index) const;

  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::Float32;
  Shape shape_;
  Strides strides_;
  std::int64_t offset_ = 0;
};

}  // namespace tensorlite
