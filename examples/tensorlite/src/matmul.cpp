// Batched matmul on the CPU, tiled exactly like the CUDA kernel in cuda/matmul.cu.
#include "tensorlite/matmul.h"

#include <array>
#include <cstddef>

#include "tensorlite/error.h"
#include "tensorlite/launch_geometry.h"
#include "tensorlite/reduction.h"

namespace tensorlite {

namespace {

// C[M, N] = A[M, K] * B[K, N] (row-major, C zero-initialised by the caller). The loops
// mirror the CUDA launch: one (row-tile, col-tile) block per grid cell, K walked in
// tiles, accumulation in acc_t<T> like the kernel's registers. Sharing the geometry
// means CPU tests catch a grid or tile bug that would otherwise need a GPU to show.
template <typename T>
void gemm_tiled(const T* a, const T* b, T* c, std::int64_t m, std::int64_t n, std::int64_t k) {
  using Acc = acc_t<T>;
  constexpr std::int64_t tile = kMatmulTile;
  const GridDims grid = matmul_grid(m, n, 1);
  const std::int64_t k_tiles = compute_grid(k, tile);
  std::array<Acc, tile * tile> acc{};
  for (std::int64_t by = 0; by < grid.y; ++by) {
    const TileSpan rows = tile_span(by, tile, m);
    for (std::int64_t bx = 0; bx < grid.x; ++bx) {
      const TileSpan cols = tile_span(bx, tile, n);
      acc.fill(Acc(0));
      for (std::int64_t t = 0; t < k_tiles; ++t) {
        const TileSpan inner = tile_span(t, tile, k);
        for (std::int64_t i = rows.begin; i < rows.end; ++i) {
          Acc* acc_row = acc.data() + (i - rows.begin) * tile;
          for (std::int64_t kk = inner.begin; kk < inner.end; ++kk) {
            const Acc av = to_acc(a[i * k + kk]);
            for (std::int64_t j = cols.begin; j < cols.end; ++j) {
              acc_row[j - cols.begin] += av * to_acc(b[kk * n + j]);
            }
          }
        }
      }
      for (std::int64_t i = rows.begin; i < rows.end; ++i) {
        for (std::int64_t j = cols.begin; j < cols.end; ++j) {
          c[i * n + j] = from_acc<T>(acc[static_cast<std::size_t>((i - rows.begin) * tile +
                                                                  (j - cols.begin))]);
        }
      }
    }
  }
}

Shape batch_dims(const Tensor& t) { return Shape(t.shape().begin(), t.shape().end() - 2); }

Shape with_matrix(Shape batch, std::int64_t rows, std::int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.dim() < 2 || b.dim() < 2) {
    throw ShapeError("matmul needs inputs of rank >= 2, got " + shape_to_string(a.shape()) +
                     " and " + shape_to_string(b.shape()));
  }
  const std::int64_t m = a.size(-2);
  const std::int64_t k = a.size(-1);
  const std::int64_t n = b.size(-1);
  if (b.size(-2) != k) {
    throw ShapeError("matmul: inner dimensions differ in " + shape_to_string(a.shape()) + " x " +
                     shape_to_string(b.shape()));
  }
  const Shape batch = broadcast_shapes(batch_dims(a), batch_dims(b));
  const DType dtype = promote_types(a.dtype(), b.dtype());
  // Materialise broadcast batches so each GEMM sees dense row-major operands.
  const Tensor ac = a.to(dtype).expand(with_matrix(batch, m, k)).contiguous();
  const Tensor bc = b.to(dtype).expand(with_matrix(batch, k, n)).contiguous();
  Tensor out = Tensor::zeros(with_matrix(batch, m, n), dtype);
  const std::int64_t batches = shape_numel(batch);
  visit_dtype(dtype, [&]<typename T>() {
    const T* pa = ac.data<T>();
    const T* pb = bc.data<T>();
    T* pc = out.data<T>();
    for (std::int64_t i = 0; i < batches; ++i) {
      gemm_tiled(pa + i * m * k, pb + i * k * n, pc + i * m * n, m, n, k);
    }
  });
  return out;
}

MatmulGrads matmul_backward(const Tensor& grad, const Tensor& a, const Tensor& b) {
  // dA = dC B^T and dB = A^T dC, summed over any batch dimensions that were broadcast.
  const Tensor grad_a = matmul(grad, b.transpose(-2, -1));
  const Tensor grad_b = matmul(a.transpose(-2, -1), grad);
  return {sum_to_shape(grad_a, a.shape()), sum_to_shape(grad_b, b.shape())};
}

}  // namespace tensorlite
