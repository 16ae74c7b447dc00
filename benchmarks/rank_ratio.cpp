// rank_ratio: times dlfl's counts + Ochiai + full ranking on a native spectrum against a
// plain read of the same coverage bytes (the memory-bandwidth floor), and reports peak
// memory against the raw coverage size. Used by benchmarks/run.sh.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

#include "dlfl/counts.h"
#include "dlfl/formula.h"
#include "dlfl/io/native_format.h"
#include "dlfl/ranking.h"
#include "dlfl/scoring.h"

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double best_seconds(int repeats, F&& body) {
  double best = 1e300;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    body();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

// Sums every 32-bit word with `threads` threads: the least work that reads the bytes.
std::uint64_t read_all(std::span<const std::uint32_t> words, unsigned threads) {
  std::vector<std::uint64_t> sums(threads, 0);
  std::vector<std::jthread> pool;
  const std::size_t chunk = (words.size() + threads - 1) / threads;
  for (unsigned i = 0; i < threads; ++i)
    pool.emplace_back([&, i] {
      const std::size_t begin = std::min(words.size(), i * chunk), end = std::min(words.size(), begin + chunk);
      std::uint64_t s = 0;
      for (std::size_t k = begin; k < end; ++k) s += words[k];
      sums[i] = s;
    });
  pool.clear();
  std::uint64_t total = 0;
  for (auto s : sums) total += s;
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: rank_ratio SPECTRUM.dlfl [THREADS] [TOP_OUT]\n";
    return 2;
  }
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 2;
  const dlfl::Spectrum s = dlfl::io::read_native(argv[1], {.verify_checksum = false});
  const auto ids = s.coverage().is_dense()
                       ? std::span<const std::uint32_t>(reinterpret_cast<const std::uint32_t*>(s.coverage().all_bits().data()),
                                                        s.coverage().all_bits().size() * 2)
                       : s.coverage().test_ids();
  const int repeats = 5;

  volatile std::uint64_t sink = 0;
  const double read_s = best_seconds(repeats, [&] { sink = sink + read_all(ids, threads); });

  const std::vector<dlfl::Formula> ochiai{dlfl::make_formula("ochiai")};
  std::vector<dlfl::RankedElement> ranking;
  const double rank_s = best_seconds(repeats, [&] {
    ranking.clear();
    ranking.shrink_to_fit();
    const dlfl::Scores scores = dlfl::score_spectrum(s, ochiai, {.threads = threads});
    ranking = dlfl::rank(scores.per_formula[0], s.tie_break_keys());
  });

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double peak = static_cast<double>(usage.ru_maxrss) * 1024.0;

  // Where the time goes, one pass each (for tuning; after the peak-memory reading, as it
  // holds every intermediate array at once).
  if (std::getenv("DLFL_BENCH_BREAKDOWN")) {
    auto t0 = Clock::now();
    const dlfl::Counts counts = dlfl::compute_counts(s, {.threads = threads});
    auto t1 = Clock::now();
    const Eigen::ArrayXd scores = ochiai[0].score(counts);
    auto t2 = Clock::now();
    const auto keys = s.tie_break_keys();
    auto t3 = Clock::now();
    ranking = dlfl::rank(scores, keys);
    auto t4 = Clock::now();
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("breakdown_ms counts %.1f score %.1f tie_keys %.1f rank %.1f\n", ms(t0, t1), ms(t1, t2),
                ms(t2, t3), ms(t3, t4));
  }

  const double raw = s.coverage().is_dense()
                         ? static_cast<double>(s.element_count()) * static_cast<double>(s.test_count()) / 8.0
                         : static_cast<double>(s.coverage().nnz()) * 4.0;
  std::printf("elements %zu tests %zu nnz %zu threads %u\n", s.element_count(), s.test_count(),
              s.coverage().nnz(), threads);
  std::printf("dlfl_seconds %.6f\nmemory_read_seconds %.6f\npeak_bytes %.0f\nraw_bytes %.0f\n", rank_s, read_s,
              peak, raw);
  if (argc > 3) {
    std::ofstream top(argv[3]);
    for (std::size_t i = 0; i < std::min<std::size_t>(20, ranking.size()); ++i)
      top << ranking[i].element << ' ' << ranking[i].score << '\n';
  }
  return 0;
}
