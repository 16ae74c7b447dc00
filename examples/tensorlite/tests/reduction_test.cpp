// Tests for sum/mean/max reductions and their gradients (reduction.h).
#include <ostream>
#include <string>

#include "test_util.h"

namespace {

namespace tl = tensorlite;
using tl::DType;
using tl::Shape;
using tltest::Tensor;
using tltest::kGradAtol;
using tltest::kGradRtol;
using tltest::numerical_grad;
using tltest::random_tensor;
using tltest::tensor_close;

struct ReduceCase {
  const char* name;
  Shape shape;
  std::int64_t axis;
  bool keepdim;
  Shape out;  // written out by hand
};

// gtest prints parameters on failure; the case name is what identifies one.
std::ostream& operator<<(std::ostream& os, const ReduceCase& c) { return os << c.name; }

// Naive reference: out[j] = reduce over k of x[index j with axis set to k].
std::vector<double> reference_sum(const Tensor& x, std::int64_t axis, const Shape& out_shape,
                                  bool keepdim, bool average) {
  const std::int64_t d = tl::normalize_axis(axis, x.dim());
  std::vector<double> out(static_cast<std::size_t>(tl::shape_numel(out_shape)), 0.0);
  for (std::size_t j = 0; j < out.size(); ++j) {
    std::vector<std::int64_t> index = tltest::unravel(static_cast<std::int64_t>(j), out_shape);
    if (!keepdim) {
      index.insert(index.begin() + d, 0);
    }
    for (std::int64_t k = 0; k < x.size(d); ++k) {
      index[static_cast<std::size_t>(d)] = k;
      out[j] += x.at(index);
    }
    if (average) {
      out[j] /= static_cast<double>(x.size(d));
    }
  }
  return out;
}

class Reduce : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(Reduce, SumMatchesReference) {
  const ReduceCase& c = GetParam();
  const Tensor x = random_tensor(c.shape, 21);
  EXPECT_TRUE(tensor_close(tl::sum(x, c.axis, c.keepdim), c.out,
                           reference_sum(x, c.axis, c.out, c.keepdim, false), 1e-12, 1e-12));
}

TEST_P(Reduce, MeanMatchesReference) {
  const ReduceCase& c = GetParam();
  const Tensor x = random_tensor(c.shape, 22);
  EXPECT_TRUE(tensor_close(tl::mean(x, c.axis, c.keepdim), c.out,
                           reference_sum(x, c.axis, c.out, c.keepdim, true), 1e-12, 1e-12));
}

TEST_P(Reduce, SumBackwardMatchesFiniteDifferences) {
  const ReduceCase& c = GetParam();
  const Tensor x = random_tensor(c.shape, 23);
  const Tensor upstream = random_tensor(c.out, 24);
  const Tensor analytic = tl::sum_backward(upstream, c.shape, c.axis, c.keepdim);
  const Tensor numeric =
      numerical_grad([&](const Tensor& v) { return tl::sum(v, c.axis, c.keepdim); }, x, upstream);
  EXPECT_TRUE(tensor_close(analytic, numeric, kGradAtol, kGradRtol));
}

TEST_P(Reduce, MeanBackwardMatchesFiniteDifferences) {
  const ReduceCase& c = GetParam();
  const Tensor x = random_tensor(c.shape, 25);
  const Tensor upstream = random_tensor(c.out, 26);
  const Tensor analytic = tl::mean_backward(upstream, c.shape, c.axis, c.keepdim);
  const Tensor numeric =
      numerical_grad([&](const Tensor& v) { return tl::mean(v, c.axis, c.keepdim); }, x, upstream);
  EXPECT_TRUE(tensor_close(analytic, numeric, kGradAtol, kGradRtol));
}

INSTANTIATE_TEST_SUITE_P(
    Axes, Reduce,
    ::testing::Values(ReduceCase{"rows", {3, 4}, 0, false, {4}},
                      ReduceCase{"cols_keepdim", {3, 4}, 1, true, {3, 1}},
                      ReduceCase{"last_negative", {2, 3, 4}, -1, false, {2, 3}},
                      ReduceCase{"middle_keepdim", {2, 3, 4}, 1, true, {2, 1, 4}},
                      ReduceCase{"vector", {5}, 0, false, {}},
                      ReduceCase{"vector_keepdim", {5}, 0, true, {1}}),
    [](const ::testing::TestParamInfo<ReduceCase>& info) { return std::string(info.param.name); });

TEST(ReduceAll, SumAndMeanOfEverything) {
  const Tensor x = Tensor::from_vector({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float64);
  EXPECT_EQ(tl::sum(x).dim(), 0);
  EXPECT_EQ(tl::sum(x).item(), 21.0);
  EXPECT_EQ(tl::mean(x).item(), 3.5);
}

TEST(ReduceAll, SumOfNonContiguousView) {
  const Tensor x = Tensor::from_vector({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Float64).transpose(0, 1);
  EXPECT_TRUE(tensor_close(tl::sum(x, 1), {3}, {5, 7, 9}));
}

TEST(ReduceDType, IntegerSumStaysInteger) {
  const Tensor s = tl::sum(Tensor::from_vector({1, 2, 3}, {3}, DType::Int32), 0);
  EXPECT_EQ(s.dtype(), DType::Int32);
  EXPECT_EQ(s.item(), 6.0);
}

TEST(ReduceDType, MeanOfIntegersThrows) {
  EXPECT_THROW(tl::mean(Tensor::ones({3}, DType::Int64), 0), tl::DTypeError);
}

TEST(ReduceErrors, AxisOutOfRangeThrows) {
  EXPECT_THROW(tl::sum(Tensor::zeros({2, 3}), 2), tl::ArgumentError);
  EXPECT_THROW(tl::mean(Tensor::zeros({2, 3}), -3), tl::ArgumentError);
}

TEST(Max, ValuesAndIndices) {
  const Tensor x = Tensor::from_vector({1, 5, 2, 7, 3, 0}, {2, 3}, DType::Float64);
  const tl::MaxResult r = tl::max(x, 1);
  EXPECT_TRUE(tensor_close(r.values, {2}, {5, 7}));
  EXPECT_EQ(r.indices.dtype(), DType::Int64);
  EXPECT_EQ(r.indices.to_vector(), (std::vector<double>{1, 0}));
}

TEST(Max, TiesPickTheFirstIndex) {
  const tl::MaxResult r = tl::max(Tensor::from_vector({4, 4, 1}, {3}, DType::Float64), 0);
  EXPECT_EQ(r.indices.item(), 0.0);
}

TEST(Max, KeepdimKeepsAxis) {
  const tl::MaxResult r = tl::max(Tensor::zeros({2, 3, 4}), 1, true);
  EXPECT_EQ(r.values.shape(), (Shape{2, 1, 4}));
  EXPECT_EQ(r.indices.shape(), (Shape{2, 1, 4}));
}

TEST(Max, EmptyAxisThrows) {
  EXPECT_THROW(tl::max(Tensor::zeros({2, 0}), 1), tl::ArgumentError);
}

TEST(Max, BackwardRoutesGradientToArgmax) {
  const Tensor x = random_tensor({3, 4}, 27);
  const Tensor upstream = random_tensor({3}, 28);
  const tl::MaxResult r = tl::max(x, 1);
  const Tensor analytic = tl::max_backward(upstream, r.indices, x.shape(), 1, false);
  const Tensor numeric =
      numerical_grad([](const Tensor& v) { return tl::max(v, 1).values; }, x, upstream);
  EXPECT_TRUE(tensor_close(analytic, numeric, kGradAtol, kGradRtol));
}

TEST(SumToShape, ReducesBroadcastDimensions) {
  const Tensor g = Tensor::ones({2, 3, 4}, DType::Float64);
  EXPECT_TRUE(tensor_close(tl::sum_to_shape(g, {3, 1}), {3, 1}, {8, 8, 8}));
  EXPECT_TRUE(tensor_close(tl::sum_to_shape(g, {4}), {4}, {6, 6, 6, 6}));
  EXPECT_TRUE(tensor_close(tl::sum_to_shape(g, Shape{}), Shape{}, {24}));
}

TEST(SumToShape, SameShapeIsIdentity) {
  const Tensor g = Tensor::ones({2, 2});
  EXPECT_TRUE(tl::sum_to_shape(g, {2, 2}).shares_storage_with(g));
}

TEST(SumToShape, NonBroadcastTargetThrows) {
  EXPECT_THROW(tl::sum_to_shape(Tensor::ones({2, 3}), {2}), tl::ShapeError);
  EXPECT_THROW(tl::sum_to_shape(Tensor::ones({3}), {2, 3}), tl::ShapeError);
}

}  // namespace
