// Scoring: counts and scores block by block, blocks shared out across threads.
#include "dlfl/scoring.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "counts_kernel.h"

namespace dlfl {

Scores score_spectrum(const Spectrum& spectrum, std::span<const Formula> formulas, const ScoringOptions& options) {
  const std::size_t n = spectrum.element_count();
  const auto size = static_cast<Eigen::Index>(n);
  Scores out;
  // Sized in place: a full-size temporary to copy from would be one more score array at
  // the peak (and, freed, raise malloc's mmap threshold so later arrays stay resident).
  out.per_formula.resize(formulas.size());
  for (auto& scores : out.per_formula) scores.resize(size);
  out.undefined.assign(formulas.size(), 0);
  const std::size_t block = std::max<std::size_t>(options.block, 1);
  const std::size_t blocks = (n + block - 1) / block;
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(blocks, 1)));

  const detail::CountsKernel count(spectrum, threads);
  std::atomic<std::size_t> next{0};
  std::vector<std::vector<std::size_t>> undefined(threads, std::vector<std::size_t>(formulas.size(), 0));
  auto work = [&](unsigned id) {
    for (std::size_t b; (b = next.fetch_add(1)) < blocks;) {
      const std::size_t first = b * block, last = std::min(n, first + block);
      const Counts counts = count(first, last, {.threads = 1});
      for (std::size_t f = 0; f < formulas.size(); ++f) {
        std::size_t nan = 0;
        out.per_formula[f].segment(static_cast<Eigen::Index>(first), static_cast<Eigen::Index>(last - first)) =
            formulas[f].score(counts, &nan);
        undefined[id][f] += nan;
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned i = 1; i < threads; ++i) pool.emplace_back(work, i);
    work(0);
  }
  for (const auto& per_thread : undefined)
    for (std::size_t f = 0; f < formulas.size(); ++f) out.undefined[f] += per_thread[f];
  return out;
}

}  // namespace dlfl
