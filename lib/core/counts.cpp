// Counts: ef, ep, nf, np per element from a Spectrum, by CSR scatter or bitset popcount.
#include "dlfl/counts.h"

#include <algorithm>
#include <bit>
#include <thread>
#include <vector>

namespace dlfl {
namespace {

unsigned thread_count(const CountsOptions& options, std::size_t work) {
  unsigned n = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  // Threads only pay off for large spectra (each needs its own partial arrays).
  if (work < (std::size_t{1} << 20)) n = 1;
  return n;
}

template <class Body>
void parallel_for(unsigned threads, std::size_t n, Body body) {
  if (threads <= 1 || n < 2) {
    body(0u, std::size_t{0}, n);
    return;
  }
  std::vector<std::jthread> pool;
  const std::size_t chunk = (n + threads - 1) / threads;
  for (unsigned i = 0; i < threads; ++i) {
    const std::size_t begin = std::min(n, i * chunk), end = std::min(n, begin + chunk);
    pool.emplace_back([=] { body(i, begin, end); });
  }
}

// ef = Aᵀw, the product of the elements × tests pattern matrix with the failure weights:
// per element, an Eigen gather-sum of w over the element's tests, which reads the test
// ids once, in order, while w stays in cache. ep = Aᵀ(1 − w) = (tests covering) − ef.
void sparse_counts(const Spectrum& s, unsigned threads, Eigen::ArrayXd& ef, Eigen::ArrayXd& ep) {
  const auto& cov = s.coverage();
  Eigen::ArrayXd w(static_cast<Eigen::Index>(s.test_count()));
  for (std::size_t t = 0; t < s.test_count(); ++t) w[static_cast<Eigen::Index>(t)] = s.tests()[t].failure_weight;
  const auto n = static_cast<Eigen::Index>(s.element_count());
  ef.resize(n);
  ep.resize(n);
  const std::uint64_t* offsets = cov.offsets().data();
  const std::uint32_t* ids = cov.test_ids().data();
  parallel_for(threads, s.element_count(), [&](unsigned, std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) {
      const auto len = static_cast<Eigen::Index>(offsets[e + 1] - offsets[e]);
      const Eigen::Map<const Eigen::Array<std::uint32_t, Eigen::Dynamic, 1>> tests(ids + offsets[e], len);
      const double f = len ? w(tests).sum() : 0.0;
      ef[static_cast<Eigen::Index>(e)] = f;
      ep[static_cast<Eigen::Index>(e)] = static_cast<double>(len) - f;
    }
  });
}

// Element-major bitsets: for 0/1 outcomes ef = popcount(bits & failed mask) and
// ep = popcount(bits & passed mask); flaky tests (0 < w < 1) are added one by one.
void dense_counts(const Spectrum& s, unsigned threads, Eigen::ArrayXd& ef, Eigen::ArrayXd& ep) {
  const DenseCoverage dense(s.coverage());
  const std::size_t words = dense.words_per_element();
  std::vector<std::uint64_t> fail_mask(words, 0), pass_mask(words, 0);
  struct Flaky { std::size_t word; std::uint64_t bit; double w; };
  std::vector<Flaky> flaky;
  for (std::size_t t = 0; t < s.test_count(); ++t) {
    const double w = s.tests()[t].failure_weight;
    const std::uint64_t bit = std::uint64_t{1} << (t % 64);
    if (w == 1.0) fail_mask[t / 64] |= bit;
    else if (w == 0.0) pass_mask[t / 64] |= bit;
    else flaky.push_back({t / 64, bit, w});
  }
  const auto n = static_cast<Eigen::Index>(s.element_count());
  ef.setZero(n);
  ep.setZero(n);
  parallel_for(threads, s.element_count(), [&](unsigned, std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) {
      const auto bits = dense.bits(e);
      std::uint64_t f = 0, p = 0;
      for (std::size_t k = 0; k < words; ++k) {
        f += static_cast<std::uint64_t>(std::popcount(bits[k] & fail_mask[k]));
        p += static_cast<std::uint64_t>(std::popcount(bits[k] & pass_mask[k]));
      }
      double ff = static_cast<double>(f), pp = static_cast<double>(p);
      for (const auto& t : flaky)
        if (bits[t.word] & t.bit) {
          ff += t.w;
          pp += 1.0 - t.w;
        }
      ef[static_cast<Eigen::Index>(e)] = ff;
      ep[static_cast<Eigen::Index>(e)] = pp;
    }
  });
}

}  // namespace

Counts Counts::from(Eigen::ArrayXd ef, Eigen::ArrayXd ep, double failed, double passed) {
  Counts c;
  c.nf = failed - ef;
  c.np = passed - ep;
  c.ef = std::move(ef);
  c.ep = std::move(ep);
  c.failed = failed;
  c.passed = passed;
  // Sums of fractional weights can leave -1e-16 where 0 is meant.
  c.nf = c.nf.max(0.0);
  c.np = c.np.max(0.0);
  return c;
}

Counts compute_counts(const Spectrum& spectrum, const CountsOptions& options) {
  const auto& cov = spectrum.coverage();
  bool dense = options.kernel == CountsKernel::dense;
  if (options.kernel == CountsKernel::automatic)
    dense = dense_is_smaller(cov.tests(), cov.elements(), cov.nnz());
  Eigen::ArrayXd ef, ep;
  if (dense)
    dense_counts(spectrum, thread_count(options, cov.elements() * ((cov.tests() + 63) / 64)), ef, ep);
  else
    sparse_counts(spectrum, thread_count(options, cov.nnz()), ef, ep);
  return Counts::from(std::move(ef), std::move(ep), spectrum.failed_weight(), spectrum.passed_weight());
}

}  // namespace dlfl
