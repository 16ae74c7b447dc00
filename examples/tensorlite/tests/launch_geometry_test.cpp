// Tests for the launch geometry shared by the CUDA kernels and the CPU tiles.
#include <tuple>

#include "test_util.h"

namespace {

namespace tl = tensorlite;

using GridCase = std::tuple<std::int64_t, std::int64_t, std::int64_t>;  // n, block, blocks

class ComputeGrid : public ::testing::TestWithParam<GridCase> {};

TEST_P(ComputeGrid, IsCeilDivision) {
  const auto [n, block, expected] = GetParam();
  EXPECT_EQ(tl::compute_grid(n, block), expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, ComputeGrid,
                         ::testing::Values(GridCase{0, 256, 0}, GridCase{256, 256, 1},
                                           GridCase{512, 256, 2}, GridCase{1, 256, 1},
                                           GridCase{257, 256, 2}, GridCase{1000, 256, 4},
                                           GridCase{16, 16, 1}, GridCase{17, 16, 2},
                                           GridCase{-5, 16, 0}));

TEST(ComputeGridErrors, NonPositiveBlockThrows) {
  EXPECT_THROW(tl::compute_grid(10, 0), tl::ArgumentError);
  EXPECT_THROW(tl::compute_grid(10, -4), tl::ArgumentError);
}

class TileCover : public ::testing::TestWithParam<std::int64_t> {};

// Every element is in exactly one tile, whatever n is relative to the tile size.
TEST_P(TileCover, TilesPartitionTheRange) {
  const std::int64_t n = GetParam();
  const std::int64_t tiles = tl::compute_grid(n, tl::kMatmulTile);
  std::int64_t next = 0;
  for (std::int64_t t = 0; t < tiles; ++t) {
    const tl::TileSpan span = tl::tile_span(t, tl::kMatmulTile, n);
    ASSERT_EQ(span.begin, next);
    ASSERT_GT(span.end, span.begin);
    ASSERT_LE(span.end - span.begin, tl::kMatmulTile);
    next = span.end;
  }
  EXPECT_EQ(next, n);
}

INSTANTIATE_TEST_SUITE_P(Sizes, TileCover, ::testing::Values(0, 1, 15, 16, 17, 32, 100));

TEST(TileSpan, LastTileIsRagged) {
  const tl::TileSpan span = tl::tile_span(2, 16, 40);
  EXPECT_EQ(span.begin, 32);
  EXPECT_EQ(span.end, 40);
}

TEST(MatmulGrid, XWalksColumnsYWalksRows) {
  const tl::GridDims grid = tl::matmul_grid(64, 32, 3);
  EXPECT_EQ(grid.x, 2);
  EXPECT_EQ(grid.y, 4);
  EXPECT_EQ(grid.z, 3);
}

TEST(ElementwiseGrid, CoversAllElementsAndIsCapped) {
  EXPECT_EQ(tl::elementwise_grid(1024), 4);
  EXPECT_EQ(tl::elementwise_grid(std::int64_t{1} << 50), tl::kMaxGridX);
}

}  // namespace
