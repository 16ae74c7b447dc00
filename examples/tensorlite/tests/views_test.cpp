// Tests for views: transpose, permute, reshape, slice, select, (un)squeeze, expand.
#include <ostream>
#include <string>

#include "test_util.h"

namespace {

using tensorlite::DType;
using tensorlite::Shape;
using tltest::Tensor;
using tltest::iota;
using tltest::tensor_close;

Tensor grid34() { return Tensor::from_vector(iota(12), {3, 4}, DType::Float64); }

TEST(Transpose, SwapsShapeAndStrides) {
  const Tensor t = grid34().transpose(0, 1);
  EXPECT_EQ(t.shape(), (Shape{4, 3}));
  EXPECT_EQ(t.strides(), (tensorlite::Strides{1, 4}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(tensor_close(t, {4, 3}, {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(Transpose, SharesStorage) {
  Tensor base = grid34();
  Tensor t = base.transpose(-1, -2);
  t.set({3, 0}, 100);
  EXPECT_EQ(base.at({0, 3}), 100.0);
}

TEST(Transpose, ContiguousCopyIsRowMajor) {
  const Tensor c = grid34().transpose(0, 1).contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.strides(), (tensorlite::Strides{3, 1}));
  EXPECT_EQ(c.at({1, 2}), 9.0);
}

TEST(Permute, ReordersAxes) {
  const Tensor t = Tensor::from_vector(iota(24), {2, 3, 4}).permute({2, 0, 1});
  EXPECT_EQ(t.shape(), (Shape{4, 2, 3}));
  // t[k, i, j] == x[i, j, k] == 12 i + 4 j + k
  EXPECT_EQ(t.at({3, 1, 2}), 12 + 8 + 3);
  EXPECT_EQ(t.at({0, 0, 1}), 4.0);
}

TEST(Permute, RejectsBadOrders) {
  const Tensor t = Tensor::zeros({2, 3, 4});
  EXPECT_THROW(t.permute({0, 0, 1}), tensorlite::ArgumentError);
  EXPECT_THROW(t.permute({0, 1}), tensorlite::ArgumentError);
  EXPECT_THROW(t.permute({0, 1, 3}), tensorlite::ArgumentError);
}

TEST(Reshape, ContiguousReshapeIsAView) {
  const Tensor base = grid34();
  const Tensor r = base.reshape({2, 6});
  EXPECT_TRUE(r.shares_storage_with(base));
  EXPECT_EQ(r.at({1, 0}), 6.0);
}

TEST(Reshape, InfersOneDimension) {
  EXPECT_EQ(grid34().reshape({-1, 2}).shape(), (Shape{6, 2}));
  EXPECT_EQ(grid34().reshape({-1}).shape(), (Shape{12}));
}

TEST(Reshape, NonContiguousInputIsCopiedInLogicalOrder) {
  const Tensor r = grid34().transpose(0, 1).reshape({12});
  EXPECT_TRUE(tensor_close(r, {12}, {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(Reshape, BadSizesThrow) {
  EXPECT_THROW(grid34().reshape({5, 2}), tensorlite::ShapeError);
  EXPECT_THROW(grid34().reshape({-1, -1}), tensorlite::ShapeError);
  EXPECT_THROW(grid34().reshape({-1, 5}), tensorlite::ShapeError);
}

TEST(View, NonContiguousThrows) {
  EXPECT_THROW(grid34().transpose(0, 1).view({12}), tensorlite::ShapeError);
  EXPECT_NO_THROW(grid34().view({4, 3}));
}

// --- slicing -----------------------------------------------------------------------------

struct SliceCase {
  const char* name;
  std::int64_t axis;
  std::int64_t start;
  std::int64_t end;
  std::int64_t step;
  Shape shape;
  std::vector<double> expected;
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const SliceCase& c) { return os << c.name; }

class Slice : public ::testing::TestWithParam<SliceCase> {};

TEST_P(Slice, MatchesPythonSemantics) {
  const SliceCase& c = GetParam();
  const Tensor s = grid34().slice(c.axis, c.start, c.end, c.step);
  EXPECT_TRUE(tensor_close(s, c.shape, c.expected));
}

INSTANTIATE_TEST_SUITE_P(
    Grid, Slice,
    ::testing::Values(
        SliceCase{"columns", 1, 1, 3, 1, {3, 2}, {1, 2, 5, 6, 9, 10}},
        SliceCase{"every_other_column", 1, 0, 4, 2, {3, 2}, {0, 2, 4, 6, 8, 10}},
        SliceCase{"last_two_columns", -1, -2, 4, 1, {3, 2}, {2, 3, 6, 7, 10, 11}},
        SliceCase{"first_rows", 0, 0, 2, 1, {2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}},
        SliceCase{"middle_row", 0, 1, 2, 1, {1, 4}, {4, 5, 6, 7}},
        SliceCase{"last_row_negative", 0, -1, 3, 1, {1, 4}, {8, 9, 10, 11}},
        SliceCase{"rows_step_two", 0, 0, 3, 2, {2, 4}, {0, 1, 2, 3, 8, 9, 10, 11}},
        SliceCase{"empty", 1, 3, 1, 1, {3, 0}, {}},
        SliceCase{"clamped", 1, -100, 100, 3, {3, 2}, {0, 3, 4, 7, 8, 11}}),
    [](const ::testing::TestParamInfo<SliceCase>& info) { return std::string(info.param.name); });

TEST(SliceViews, SliceOfSliceComposes) {
  const Tensor s = grid34().slice(0, 1, 3).slice(1, 1, 4, 2);
  EXPECT_TRUE(tensor_close(s, {2, 2}, {5, 7, 9, 11}));
}

TEST(SliceViews, SliceSharesStorage) {
  Tensor base = grid34();
  Tensor s = base.slice(1, 2, 4);
  s.set({0, 0}, -1);
  EXPECT_EQ(base.at({0, 2}), -1.0);
}

TEST(SliceViews, NonPositiveStepThrows) {
  EXPECT_THROW(grid34().slice(0, 0, 2, 0), tensorlite::ArgumentError);
  EXPECT_THROW(grid34().slice(0, 0, 2, -1), tensorlite::ArgumentError);
}

TEST(Select, RowRemovesTheAxis) {
  EXPECT_TRUE(tensor_close(grid34().select(0, 2), {4}, {8, 9, 10, 11}));
}

TEST(Select, ColumnRemovesTheAxis) {
  EXPECT_TRUE(tensor_close(grid34().select(1, -1), {3}, {3, 7, 11}));
}

TEST(Select, OutOfRangeThrows) {
  EXPECT_THROW(grid34().select(0, 3), tensorlite::ArgumentError);
}

TEST(Unsqueeze, InsertsSizeOneAxis) {
  EXPECT_EQ(grid34().unsqueeze(0).shape(), (Shape{1, 3, 4}));
  EXPECT_EQ(grid34().unsqueeze(1).shape(), (Shape{3, 1, 4}));
  EXPECT_EQ(grid34().unsqueeze(-1).shape(), (Shape{3, 4, 1}));
  EXPECT_TRUE(grid34().unsqueeze(1).is_contiguous());
}

TEST(Squeeze, RemovesOnlySizeOneAxes) {
  const Tensor t = Tensor::zeros({3, 1, 4});
  EXPECT_EQ(t.squeeze(1).shape(), (Shape{3, 4}));
  EXPECT_EQ(t.squeeze(0).shape(), (Shape{3, 1, 4}));
}

TEST(Expand, BroadcastsWithoutCopying) {
  const Tensor col = Tensor::from_vector({1, 2, 3}, {3, 1}, DType::Float64);
  const Tensor e = col.expand({2, 3, 4});
  EXPECT_TRUE(e.shares_storage_with(col));
  EXPECT_EQ(e.strides(), (tensorlite::Strides{0, 1, 0}));
  EXPECT_EQ(e.at({1, 2, 3}), 3.0);
  EXPECT_EQ(e.contiguous().to_vector().size(), 24u);
}

TEST(Expand, IncompatibleShapeThrows) {
  EXPECT_THROW(Tensor::zeros({3, 2}).expand({3, 4}), tensorlite::ShapeError);
}

}  // namespace
