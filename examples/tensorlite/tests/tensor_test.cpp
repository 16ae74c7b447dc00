// Tests for Tensor construction, element access and copies (tensor.h).
#include <cstdint>

#include "test_util.h"

namespace {

using tensorlite::DType;
using tensorlite::Half;
using tltest::Tensor;

TEST(TensorCreate, FromVectorKeepsShapeAndValues) {
  const Tensor t = Tensor::from_vector({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(t.shape(), (tensorlite::Shape{2, 3}));
  EXPECT_EQ(t.strides(), (tensorlite::Strides{3, 1}));
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.dim(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.at({1, 2}), 6.0);
  EXPECT_TRUE(t.is_contiguous());
}

TEST(TensorCreate, FromVectorWithWrongCountThrows) {
  EXPECT_THROW(Tensor::from_vector({1, 2, 3}, {2, 2}), tensorlite::ShapeError);
}

TEST(TensorCreate, NegativeDimensionThrows) {
  EXPECT_THROW(Tensor::zeros({2, -1}), tensorlite::ShapeError);
}

TEST(TensorCreate, ZerosOnesFull) {
  EXPECT_EQ(Tensor::zeros({2, 2}).to_vector(), (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(Tensor::ones({3}, DType::Int64).to_vector(), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(Tensor::full({2}, 2.5, DType::Float64).to_vector(), (std::vector<double>{2.5, 2.5}));
}

TEST(TensorCreate, ScalarIsZeroDimensional) {
  const Tensor s = Tensor::scalar(4.25, DType::Float64);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_EQ(s.item(), 4.25);
}

TEST(TensorCreate, Arange) {
  EXPECT_EQ(Tensor::arange(4, DType::Int32).to_vector(), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(Tensor::arange(0).numel(), 0);
}

TEST(TensorCreate, EmptyZeroSizedTensor) {
  const Tensor t = Tensor::zeros({0, 3});
  EXPECT_EQ(t.numel(), 0);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_TRUE(t.to_vector().empty());
}

TEST(TensorAccess, ItemNeedsExactlyOneElement) {
  EXPECT_THROW(Tensor::zeros({2}).item(), tensorlite::ShapeError);
  EXPECT_EQ(Tensor::full({1, 1}, 3.0).item(), 3.0);
}

TEST(TensorAccess, SetThenAt) {
  Tensor t = Tensor::zeros({2, 3}, DType::Float64);
  t.set({1, 0}, 7.5);
  EXPECT_EQ(t.at({1, 0}), 7.5);
  EXPECT_EQ(t.to_vector(), (std::vector<double>{0, 0, 0, 7.5, 0, 0}));
}

TEST(TensorAccess, NegativeIndicesCountFromTheEnd) {
  const Tensor t = Tensor::from_vector(tltest::iota(6), {2, 3});
  EXPECT_EQ(t.at({-1, -1}), 5.0);
  EXPECT_EQ(t.at({0, -3}), 0.0);
}

TEST(TensorAccess, OutOfRangeIndexThrows) {
  const Tensor t = Tensor::zeros({2, 3});
  EXPECT_THROW(t.at({2, 0}), tensorlite::ArgumentError);
  EXPECT_THROW(t.at({0, -4}), tensorlite::ArgumentError);
  EXPECT_THROW(t.at({0}), tensorlite::ArgumentError);
}

TEST(TensorAccess, SizeAndStrideAcceptNegativeAxes) {
  const Tensor t = Tensor::zeros({2, 3, 4});
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(-3), 12);
  EXPECT_THROW(t.size(3), tensorlite::ArgumentError);
}

TEST(TensorAccess, WrongElementTypeThrows) {
  Tensor t = Tensor::zeros({2}, DType::Float32);
  EXPECT_THROW(t.data<double>(), tensorlite::DTypeError);
  EXPECT_NO_THROW(t.data<float>());
}

TEST(TensorAccess, UndefinedTensorThrows) {
  const Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_THROW(t.to_vector(), tensorlite::ArgumentError);
  EXPECT_THROW(t.clone(), tensorlite::ArgumentError);
}

TEST(TensorCopy, CloneIsDeep) {
  const Tensor a = Tensor::from_vector({1, 2, 3}, {3});
  Tensor b = a.clone();
  b.set({0}, 10);
  EXPECT_EQ(a.at({0}), 1.0);
  EXPECT_FALSE(a.shares_storage_with(b));
}

TEST(TensorCopy, ContiguousDoesNotCopyContiguousTensors) {
  const Tensor a = Tensor::zeros({2, 2});
  EXPECT_TRUE(a.contiguous().shares_storage_with(a));
}

TEST(TensorCopy, ToSameDTypeAliases) {
  const Tensor a = Tensor::zeros({2}, DType::Float64);
  EXPECT_TRUE(a.to(DType::Float64).shares_storage_with(a));
  EXPECT_FALSE(a.to(DType::Float32).shares_storage_with(a));
}

TEST(TensorCopy, CopyConvertsDType) {
  Tensor dst = Tensor::zeros({3}, DType::Int32);
  dst.copy_(Tensor::from_vector({1.9, -2.9, 3.0}, {3}, DType::Float64));
  EXPECT_EQ(dst.to_vector(), (std::vector<double>{1, -2, 3}));
}

TEST(TensorCopy, CopyShapeMismatchThrows) {
  Tensor dst = Tensor::zeros({3});
  EXPECT_THROW(dst.copy_(Tensor::zeros({4})), tensorlite::ShapeError);
}

TEST(TensorCopy, FillWritesEveryElement) {
  Tensor t = Tensor::zeros({2, 3}, DType::Int64);
  t.fill_(4);
  EXPECT_EQ(t.to_vector(), (std::vector<double>(6, 4.0)));
}

TEST(TensorCopy, Float16StorageRounds) {
  const Tensor t = Tensor::from_vector({1.0, 1.0 + 1.0 / 4096.0}, {2}, DType::Float16);
  EXPECT_EQ(t.to_vector(), (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(t.data<Half>()[1].bits, 0x3c00);
}

template <typename T>
class TensorTyped : public ::testing::Test {};

using ElementTypes = ::testing::Types<tensorlite::Half, float, double, std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(TensorTyped, ElementTypes);

TYPED_TEST(TensorTyped, ZerosAreZero) {
  const Tensor t = Tensor::zeros({3, 2}, tensorlite::dtype_of<TypeParam>);
  EXPECT_EQ(t.to_vector(), std::vector<double>(6, 0.0));
  EXPECT_EQ(t.dtype(), tensorlite::dtype_of<TypeParam>);
}

TYPED_TEST(TensorTyped, CloneKeepsDTypeAndValues) {
  const Tensor t = Tensor::from_vector({4, -5, 6}, {3}, tensorlite::dtype_of<TypeParam>);
  const Tensor c = t.clone();
  EXPECT_EQ(c.dtype(), t.dtype());
  EXPECT_EQ(c.to_vector(), t.to_vector());
}

TYPED_TEST(TensorTyped, ElementSizeMatchesStorage) {
  EXPECT_EQ(tensorlite::dtype_size(tensorlite::dtype_of<TypeParam>), sizeof(TypeParam));
}

}  // namespace
