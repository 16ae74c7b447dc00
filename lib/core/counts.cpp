// Counts: ef, ep, nf, np per element, by a weight gather (sparse) or popcount (dense).
#include "dlfl/counts.h"

#include <algorithm>
#include <bit>
#include <thread>
#include <vector>

#include "counts_kernel.h"
#include "popcnt_clones.h"

namespace dlfl {
namespace {

using detail::WeightCodes;

unsigned thread_count(const CountsOptions& options, std::size_t work) {
  unsigned n = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  if (work < (std::size_t{1} << 18)) n = 1;  // threads only pay off for large spectra
  return n;
}

// Runs body(begin, end) on the ranges [bounds[i], bounds[i+1]), one thread each.
template <class Body>
void parallel_ranges(const std::vector<std::size_t>& bounds, Body body) {
  if (bounds.size() <= 2) {
    body(bounds.front(), bounds.back());
    return;
  }
  std::vector<std::jthread> pool;
  for (std::size_t i = 1; i + 1 < bounds.size(); ++i) pool.emplace_back([=] { body(bounds[i], bounds[i + 1]); });
  body(bounds[0], bounds[1]);
}

template <class Body>
void parallel_for(unsigned threads, std::size_t first, std::size_t last, Body body) {
  threads = static_cast<unsigned>(std::clamp<std::size_t>(last - first, 1, std::max(threads, 1u)));
  std::vector<std::size_t> bounds(threads + 1);
  for (unsigned i = 0; i <= threads; ++i) bounds[i] = first + (last - first) * i / threads;
  parallel_ranges(bounds, body);
}

// ef = Aᵀw: the product of the (element-major) pattern matrix with the failure weights,
// one gather-sum per element, reading the test ids once, in order, while w stays in
// cache; four accumulators hide the add latency. ep = Aᵀ(1 − w) = |tests of e| − ef.
// `Weight` is double (any weights) or std::uint8_t (WeightCodes, summed in `Sum`).
template <class Weight, class Sum>
void gather_counts(const Spectrum& s, std::size_t first, std::size_t last, unsigned threads, const Weight* wp,
                   double scale, Eigen::ArrayXd& ef, Eigen::ArrayXd& ep) {
  const std::uint64_t* offsets = s.coverage().offsets().data();
  const std::uint32_t* ids = s.coverage().test_ids().data();
  // Shares of equal nnz, not of equal element counts: some elements (setup code) are
  // covered by every test, most by a few.
  threads = static_cast<unsigned>(std::clamp<std::size_t>(last - first, 1, std::max(threads, 1u)));
  std::vector<std::size_t> bounds(threads + 1, last);
  bounds[0] = first;
  for (unsigned i = 1; i < threads; ++i) {
    const std::uint64_t target = offsets[first] + (offsets[last] - offsets[first]) * i / threads;
    bounds[i] = static_cast<std::size_t>(std::lower_bound(offsets + first, offsets + last, target) - offsets);
  }
  parallel_ranges(bounds, [&](std::size_t begin, std::size_t end) {
    for (std::size_t e = begin; e < end; ++e) {
      const std::uint32_t* t = ids + offsets[e];
      const std::size_t len = offsets[e + 1] - offsets[e];
      Sum a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      std::size_t k = 0;
      for (; k + 4 <= len; k += 4) {
        a0 += wp[t[k]];
        a1 += wp[t[k + 1]];
        a2 += wp[t[k + 2]];
        a3 += wp[t[k + 3]];
      }
      for (; k < len; ++k) a0 += wp[t[k]];
      const double f = static_cast<double>((a0 + a1) + (a2 + a3)) / scale;
      ef[static_cast<Eigen::Index>(e - first)] = f;
      ep[static_cast<Eigen::Index>(e - first)] = static_cast<double>(len) - f;
    }
  });
}

void sparse_counts(const Spectrum& s, std::size_t first, std::size_t last, unsigned threads,
                   const std::vector<double>& w, const WeightCodes& codes, Eigen::ArrayXd& ef, Eigen::ArrayXd& ep) {
  if (codes.scale > 0)
    gather_counts<std::uint8_t, std::uint32_t>(s, first, last, threads, codes.code.data(), codes.scale, ef, ep);
  else
    gather_counts<double, double>(s, first, last, threads, w.data(), 1.0, ef, ep);
}

// ef and ep of `count` dense rows of `words` words each, from `bits` on.
DLFL_POPCNT_CLONES
void dense_rows(const std::uint64_t* bits, std::size_t words, std::size_t count, const detail::TestMasks& masks,
                double* ef, double* ep) {
  const std::uint64_t* fail_mask = masks.failed.data();
  const std::uint64_t* pass_mask = masks.passed.data();
  for (std::size_t e = 0; e < count; ++e, bits += words) {
    std::uint64_t f = 0, p = 0;
    for (std::size_t k = 0; k < words; ++k) {
      f += static_cast<std::uint64_t>(std::popcount(bits[k] & fail_mask[k]));
      p += static_cast<std::uint64_t>(std::popcount(bits[k] & pass_mask[k]));
    }
    double ff = static_cast<double>(f), pp = static_cast<double>(p);
    for (const auto& t : masks.flaky)
      if (bits[t.word] & t.bit) {
        ff += t.weight;
        pp += 1.0 - t.weight;
      }
    ef[e] = ff;
    ep[e] = pp;
  }
}

// For 0/1 outcomes ef = popcount(bits & failed mask) and ep = popcount(bits & passed
// mask); flaky tests (0 < w < 1) are added one by one.
void dense_counts(const Spectrum& s, std::size_t first, std::size_t last, unsigned threads,
                  const detail::TestMasks& masks, Eigen::ArrayXd& ef, Eigen::ArrayXd& ep) {
  const Coverage& cov = s.coverage();
  const std::size_t words = cov.words_per_element();
  parallel_for(threads, first, last, [&](std::size_t begin, std::size_t end) {
    if (begin == end) return;
    dense_rows(cov.bits(begin).data(), words, end - begin, masks, ef.data() + (begin - first),
               ep.data() + (begin - first));
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
  return detail::CountsKernel(spectrum)(first, last, options);
}

namespace detail {

WeightCodes weight_codes(const std::vector<double>& w) {
  for (unsigned scale = 1; scale <= 128; scale *= 2) {
    WeightCodes codes{std::vector<std::uint8_t>(w.size()), static_cast<double>(scale)};
    bool exact = true;
    for (std::size_t t = 0; t < w.size() && exact; ++t) {
      const double scaled = w[t] * scale;  // exact: scale is a power of two
      exact = scaled == static_cast<double>(static_cast<unsigned>(scaled));
      codes.code[t] = static_cast<std::uint8_t>(scaled);
    }
    // Sums stay below 2^32: at most `tests` codes of at most `scale` each.
    if (exact && static_cast<double>(w.size()) * scale < 4294967296.0) return codes;
  }
  return {};
}

CountsKernel::CountsKernel(const Spectrum& spectrum, unsigned threads)
    : spectrum_(spectrum), failed_(spectrum.failed_weight()), passed_(spectrum.passed_weight()) {
  weights_.resize(spectrum.test_count());
  for (std::size_t t = 0; t < weights_.size(); ++t) weights_[t] = spectrum.tests()[t].failure_weight;
  if (!spectrum.coverage().is_dense()) {
    const FailingCoverage* failing = spectrum.failing_coverage();
    if (failing && spectrum.binary_outcomes()) {
      // One increment per failing covered pair (~1% of the matrix at 1% failing tests);
      // the passing tests' ids are never read.
      // Threads count the elements of their own range, each row's share found by binary
      // search (rows are ascending); the array is not zeroed in advance but range by range.
      from_failing_rows_ = true;
      const std::size_t n = spectrum.element_count();
      failing_hits_.reset(new std::uint32_t[n]);
      parallel_for(n >= (std::size_t{1} << 18) ? threads : 1, 0, n, [&](std::size_t begin, std::size_t end) {
        std::uint32_t* hits = failing_hits_.get();
        std::fill(hits + begin, hits + end, 0u);
        for (std::size_t r = 0; r < failing->tests().size(); ++r) {
          const auto row = failing->row(r);
          for (auto e = std::lower_bound(row.begin(), row.end(), begin); e != row.end() && *e < end; ++e) ++hits[*e];
        }
      });
      return;
    }
    codes_ = weight_codes(weights_);
    return;
  }
  const std::size_t words = spectrum.coverage().words_per_element();
  masks_.failed.assign(words, 0);
  masks_.passed.assign(words, 0);
  for (std::size_t t = 0; t < weights_.size(); ++t) {
    const std::uint64_t bit = std::uint64_t{1} << (t % 64);
    if (weights_[t] == 1.0) masks_.failed[t / 64] |= bit;
    else if (weights_[t] == 0.0) masks_.passed[t / 64] |= bit;
    else masks_.flaky.push_back({t / 64, bit, weights_[t]});
  }
}

Counts CountsKernel::operator()(std::size_t first, std::size_t last, const CountsOptions& options) const {
  const Coverage& cov = spectrum_.coverage();
  last = std::min(last, spectrum_.element_count());
  first = std::min(first, last);
  Eigen::ArrayXd ef(static_cast<Eigen::Index>(last - first)), ep(static_cast<Eigen::Index>(last - first));
  const double share = cov.elements() ? static_cast<double>(last - first) / static_cast<double>(cov.elements()) : 0;
  if (from_failing_rows_) {
    const std::uint64_t* offsets = cov.offsets().data();
    for (std::size_t e = first; e < last; ++e) {
      const auto f = static_cast<double>(failing_hits_[e]);
      ef[static_cast<Eigen::Index>(e - first)] = f;
      ep[static_cast<Eigen::Index>(e - first)] = static_cast<double>(offsets[e + 1] - offsets[e]) - f;
    }
  } else if (cov.is_dense()) {
    const auto work = static_cast<std::size_t>(static_cast<double>(cov.all_bits().size()) * share);
    dense_counts(spectrum_, first, last, thread_count(options, work), masks_, ef, ep);
  } else {
    const auto work = static_cast<std::size_t>(static_cast<double>(cov.nnz()) * share);
    sparse_counts(spectrum_, first, last, thread_count(options, work), weights_, codes_, ef, ep);
  }
  return Counts::from(std::move(ef), std::move(ep), failed_, passed_);
}

}  // namespace detail
}  // namespace dlfl
