// Tests for shape arithmetic and broadcasting rules (shape.h).
#include <ostream>
#include <string>
#include <tuple>

#include "test_util.h"

namespace {

using tensorlite::Shape;
using tensorlite::Strides;

TEST(Shape, NumelMultipliesDimensions) {
  EXPECT_EQ(tensorlite::shape_numel({2, 3, 4}), 24);
  EXPECT_EQ(tensorlite::shape_numel({}), 1);  // a 0-d tensor holds one element
  EXPECT_EQ(tensorlite::shape_numel({3, 0, 2}), 0);
}

TEST(Shape, ContiguousStridesAreRowMajor) {
  EXPECT_EQ(tensorlite::contiguous_strides({2, 3, 4}), (Strides{12, 4, 1}));
  EXPECT_EQ(tensorlite::contiguous_strides({5}), (Strides{1}));
  EXPECT_EQ(tensorlite::contiguous_strides({}), (Strides{}));
}

TEST(Shape, ContiguousStridesIgnoreZeroSizedDims) {
  EXPECT_EQ(tensorlite::contiguous_strides({2, 0, 3}), (Strides{3, 3, 1}));
}

TEST(Shape, ToString) {
  EXPECT_EQ(tensorlite::shape_to_string({2, 3}), "[2, 3]");
  EXPECT_EQ(tensorlite::shape_to_string({}), "[]");
}

// --- axis normalisation ------------------------------------------------------------------

using AxisCase = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // axis, rank, expected

class NormalizeAxis : public ::testing::TestWithParam<AxisCase> {};

TEST_P(NormalizeAxis, WrapsNegativeAxes) {
  const auto [axis, rank, expected] = GetParam();
  EXPECT_EQ(tensorlite::normalize_axis(axis, rank), expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, NormalizeAxis,
                         ::testing::Values(AxisCase{0, 3, 0}, AxisCase{2, 3, 2},
                                           AxisCase{-1, 3, 2}, AxisCase{-3, 3, 0},
                                           AxisCase{-1, 1, 0}));

TEST(NormalizeAxisErrors, OutOfRangeThrows) {
  EXPECT_THROW(tensorlite::normalize_axis(3, 3), tensorlite::ArgumentError);
  EXPECT_THROW(tensorlite::normalize_axis(-4, 3), tensorlite::ArgumentError);
  EXPECT_THROW(tensorlite::normalize_axis(0, 0), tensorlite::ArgumentError);
}

// --- broadcasting ------------------------------------------------------------------------

struct BroadcastCase {
  const char* name;
  Shape a;
  Shape b;
  Shape expected;
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const BroadcastCase& c) { return os << c.name; }

class BroadcastShapes : public ::testing::TestWithParam<BroadcastCase> {};

TEST_P(BroadcastShapes, FollowsNumPyRules) {
  const BroadcastCase& c = GetParam();
  EXPECT_EQ(tensorlite::broadcast_shapes(c.a, c.b), c.expected);
  EXPECT_EQ(tensorlite::broadcast_shapes(c.b, c.a), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Compatible, BroadcastShapes,
    ::testing::Values(BroadcastCase{"same", {2, 3}, {2, 3}, {2, 3}},
                      BroadcastCase{"row_vector", {3, 4}, {4}, {3, 4}},
                      BroadcastCase{"column", {3, 1}, {1, 4}, {3, 4}},
                      BroadcastCase{"scalar", {2, 3}, {}, {2, 3}},
                      BroadcastCase{"leading_dims", {5, 1, 3}, {2, 1}, {5, 2, 3}},
                      BroadcastCase{"both_stretch", {1, 4, 1}, {3, 1, 6}, {3, 4, 6}},
                      BroadcastCase{"empty_rows", {0, 3}, {1, 3}, {0, 3}},
                      BroadcastCase{"empty_against_one", {2, 0}, {2, 1}, {2, 0}},
                      BroadcastCase{"empty_vector", {0}, {1}, {0}}),
    [](const ::testing::TestParamInfo<BroadcastCase>& info) {
      return std::string(info.param.name);
    });

class BroadcastIncompatible : public ::testing::TestWithParam<BroadcastCase> {};

TEST_P(BroadcastIncompatible, Throws) {
  const BroadcastCase& c = GetParam();
  EXPECT_THROW(tensorlite::broadcast_shapes(c.a, c.b), tensorlite::ShapeError);
}

INSTANTIATE_TEST_SUITE_P(
    Incompatible, BroadcastIncompatible,
    ::testing::Values(BroadcastCase{"trailing", {3, 4}, {3}, {}},
                      BroadcastCase{"middle", {2, 3, 4}, {2, 2, 4}, {}},
                      BroadcastCase{"zero_vs_two", {0}, {2}, {}},
                      BroadcastCase{"leading", {2, 1}, {3, 3, 1}, {}}),
    [](const ::testing::TestParamInfo<BroadcastCase>& info) {
      return std::string(info.param.name);
    });

TEST(BroadcastShapesError, MessageNamesBothShapes) {
  try {
    tensorlite::broadcast_shapes({3, 4}, {5});
    FAIL() << "expected ShapeError";
  } catch (const tensorlite::ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("[3, 4]"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("[5]"), std::string::npos);
  }
}

TEST(BroadcastStrides, StretchedDimensionsGetStrideZero) {
  EXPECT_EQ(tensorlite::broadcast_strides({3, 1}, {1, 1}, {2, 3, 4}), (Strides{0, 1, 0}));
  EXPECT_EQ(tensorlite::broadcast_strides({4}, {1}, {3, 4}), (Strides{0, 1}));
}

TEST(BroadcastStrides, IncompatibleTargetThrows) {
  EXPECT_THROW(tensorlite::broadcast_strides({3}, {1}, {4}), tensorlite::ShapeError);
  EXPECT_THROW(tensorlite::broadcast_strides({2, 3}, {3, 1}, {3}), tensorlite::ShapeError);
}

}  // namespace
