// rank_ratio: times dlfl's counts + Ochiai + full ranking on a native spectrum against a
// plain read of the same coverage bytes (the memory-bandwidth floor), and reports peak
// memory against the raw coverage size. Used by benchmarks/run.sh.
//
// The two timings alternate (read, rank, read, rank, ...) so that both see the same load
// on a shared machine, and each keeps its best run. Wall time is what the targets are
// about; process CPU time (all threads) is printed too because it is far less sensitive
// to other processes taking the cores.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

#include "dlfl/formula.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/ranking.h"
#include "dlfl/scoring.h"

namespace {

using Clock = std::chrono::steady_clock;

double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Timing {
  double wall = 1e300, cpu = 1e300;
};

// Runs body, and keeps the best wall and best CPU time seen so far in `best`.
template <class F>
void time_into(Timing& best, F&& body) {
  const double cpu0 = cpu_now();
  const auto wall0 = Clock::now();
  body();
  best.wall = std::min(best.wall, std::chrono::duration<double>(Clock::now() - wall0).count());
  best.cpu = std::min(best.cpu, cpu_now() - cpu0);
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
    std::cerr << "usage: rank_ratio SPECTRUM.dlfl [THREADS] [TOP_OUT] [REPEATS]\n";
    return 2;
  }
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 2;
  const int repeats = argc > 4 ? std::stoi(argv[4]) : 5;  // as many as numpy_reference.py
  const dlfl::Spectrum s = dlfl::io::read_native(argv[1], {.verify_checksum = false});
  // The read covers what every ranking must read, the covering test ids (sparse) or the
  // bit words (dense). dlfl also reads the offsets (8 B per element) and, for the tie
  // order, the element records (24 B per element): 8% more bytes on the target spectrum.
  const auto ids = s.coverage().is_dense()
                       ? std::span<const std::uint32_t>(reinterpret_cast<const std::uint32_t*>(s.coverage().all_bits().data()),
                                                        s.coverage().all_bits().size() * 2)
                       : s.coverage().test_ids();

  const std::vector<dlfl::Formula> ochiai{dlfl::make_formula("ochiai")};
  std::vector<dlfl::RankedElement> ranking;
  volatile std::uint64_t sink = 0;
  Timing read, total, scoring, tie_order, ranking_time;
  for (int i = 0; i < repeats; ++i) {
    time_into(read, [&] { sink = sink + read_all(ids, threads); });
    ranking.clear();
    ranking.shrink_to_fit();
    time_into(total, [&] {
      dlfl::Scores scores;
      dlfl::TieOrder order = dlfl::TieOrder::by_id();
      time_into(scoring, [&] { scores = dlfl::score_spectrum(s, ochiai, {.threads = threads}); });
      time_into(tie_order, [&] { order = s.tie_order(); });
      time_into(ranking_time, [&] { ranking = dlfl::rank(scores.per_formula[0], order, 0, threads); });
    });
  }

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double peak = static_cast<double>(usage.ru_maxrss) * 1024.0;
  const double raw = s.coverage().is_dense()
                         ? static_cast<double>(s.element_count()) * static_cast<double>(s.test_count()) / 8.0
                         : static_cast<double>(s.coverage().nnz()) * 4.0;
  std::printf("elements %zu tests %zu nnz %zu threads %u repeats %d\n", s.element_count(), s.test_count(),
              s.coverage().nnz(), threads, repeats);
  // Best of each phase separately, so they need not add up to the best total.
  std::printf("breakdown_ms counts+scores %.1f tie_order %.1f rank %.1f (wall; cpu %.1f %.1f %.1f)\n",
              scoring.wall * 1e3, tie_order.wall * 1e3, ranking_time.wall * 1e3, scoring.cpu * 1e3, tie_order.cpu * 1e3,
              ranking_time.cpu * 1e3);
  std::printf("dlfl_seconds %.6f\nmemory_read_seconds %.6f\n", total.wall, read.wall);
  std::printf("dlfl_cpu_seconds %.6f\nmemory_read_cpu_seconds %.6f\n", total.cpu, read.cpu);
  std::printf("peak_bytes %.0f\nraw_bytes %.0f\n", peak, raw);
  if (argc > 3 && argv[3][0] != 0) {
    std::ofstream top(argv[3]);
    for (std::size_t i = 0; i < std::min<std::size_t>(20, ranking.size()); ++i)
      top << ranking[i].element << ' ' << ranking[i].score << '\n';
  }
  return 0;
}
