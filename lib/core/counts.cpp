// Counts: ef, ep, nf, np per element, by a weight gather (sparse) or popcount (dense).
#include "dlfl/counts.h"

#include <algorithm>
#include <bit>
#include <thread>
#include <vector>

namespace dlfl {
namespace {

unsigned thread_count(const CountsOptions& options, std::size_t work) {
  unsigned n = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  if (work < (std::size_t{1} << 18)) n = 1;  // threads only pay off for large spectra
  return n;
}

template <class Body>
void parallel_for(unsigned threads, std::size_t first, std::size_t last, Body body) {
  if (threads <= 1 || last - first < 2) {
    body(first, last);
    return;
  }
  std::vector<std::jthread> pool;
  const std::size_t chunk = (last - first + threads - 1) / threads;
  for (unsigned i = 0; i < threads; ++i) {
    const std::size_t begin = std::min(last, first + i * chunk), end = std::min(last, begin + chunk);
    pool.emplace_back([=] { body(begin, end); });
  }
}

// ef = Aᵀw: the product of the (element-major) pattern matrix with the failure weights,
// one gather-sum per element, reading the test ids once, in order, while w stays in
// cache; four accumulators hide the add latency. ep = Aᵀ(1 − w) = |tests of e| − ef.
void sparse_counts(const Spectrum& s, std::size_t first, std::size_t last, unsigned threads,
                   const std::vector<double>& w, Eigen::ArrayXd& ef, Eigen::ArrayXd& ep) {
  const std::uint64_t* offsets = s.coverage().offsets().data();
  const std::uint32_t* ids = s.coverage().test_ids().data();
  const double* wp = w.data();
  parallel_for(threads, first, last, [&](std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) {
      const std::uint32_t* t = ids + offsets[e];
      const std::size_t len = offsets[e + 1] - offsets[e];
      double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      std::size_t k = 0;
      for (; k + 4 <= len; k += 4) {
        a0 += wp[t[k]];
        a1 += wp[t[k + 1]];
        a2 += wp[t[k + 2]];
        a3 += wp[t[k + 3]];
      }
      for (; k < len; ++k) a0 += wp[t[k]];
      const double f = (a0 + a1) + (a2 + a3);
      ef[static_cast<Eigen::Index>(e - first)] = f;
      ep[static_cast<Eigen::Index>(e - first)] = static_cast<double>(len) - f;
    }
  });
}

// For 0/1 outcomes ef = popcount(bits & failed mask) and ep = popcount(bits & passed
// mask); flaky tests (0 < w < 1) are added one by one.
void dense_counts(const Spectrum& s, std::size_t first, std::size_t last, unsigned threads,
                  const std::vector<double>& w, Eigen::ArrayXd& ef, Eigen::ArrayXd& ep) {
  const Coverage& cov = s.coverage();
  const std::size_t words = cov.words_per_element();
  std::vector<std::uint64_t> fail_mask(words, 0), pass_mask(words, 0);
  struct Flaky {
    std::size_t word;
    std::uint64_t bit;
    double w;
  };
  std::vector<Flaky> flaky;
  for (std::size_t t = 0; t < w.size(); ++t) {
    const std::uint64_t bit = std::uint64_t{1} << (t % 64);
    if (w[t] == 1.0) fail_mask[t / 64] |= bit;
    else if (w[t] == 0.0) pass_mask[t / 64] |= bit;
    else flaky.push_back({t / 64, bit, w[t]});
  }
  parallel_for(threads, first, last, [&](std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) {
      const auto bits = cov.bits(e);
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
      ef[static_cast<Eigen::Index>(e - first)] = ff;
      ep[static_cast<Eigen::Index>(e - first)] = pp;
    }
  });
}

}  // namespace

Counts Counts::from(Eigen::ArrayXd ef, Eigen::ArrayXd ep, double failed, double passed) {
  Counts c;
  // Sums of fractional weights can leave -1e-16 where 0 is meant.
  c.nf = (failed - ef).max(0.0);
  c.np = (passed - ep).max(0.0);
  c.ef = std::move(ef);
  c.ep = std::move(ep);
  c.failed = failed;
  c.passed = passed;
  return c;
}

Counts compute_counts(const Spectrum& spectrum, const CountsOptions& options) {
  return compute_counts(spectrum, 0, spectrum.element_count(), options);
}

Counts compute_counts(const Spectrum& spectrum, std::size_t first, std::size_t last, const CountsOptions& options) {
  const Coverage& cov = spectrum.coverage();
  last = std::min(last, spectrum.element_count());
  first = std::min(first, last);
  std::vector<double> w(spectrum.test_count());
  for (std::size_t t = 0; t < w.size(); ++t) w[t] = spectrum.tests()[t].failure_weight;
  Eigen::ArrayXd ef(static_cast<Eigen::Index>(last - first)), ep(static_cast<Eigen::Index>(last - first));
  const double share = cov.elements() ? static_cast<double>(last - first) / static_cast<double>(cov.elements()) : 0;
  if (cov.is_dense()) {
    const auto work = static_cast<std::size_t>(static_cast<double>(cov.all_bits().size()) * share);
    dense_counts(spectrum, first, last, thread_count(options, work), w, ef, ep);
  } else {
    const auto work = static_cast<std::size_t>(static_cast<double>(cov.nnz()) * share);
    sparse_counts(spectrum, first, last, thread_count(options, work), w, ef, ep);
  }
  return Counts::from(std::move(ef), std::move(ep), spectrum.failed_weight(), spectrum.passed_weight());
}

}  // namespace dlfl
