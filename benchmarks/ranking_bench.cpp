// Google Benchmark suite of the ranking core: counts + scores + ranking over synthetic
// spectra (sizes, densities, sparse vs dense storage, 1 and 2 threads, flaky outcomes),
// next to a plain read of the same coverage bytes. The default grid stays small enough
// for a laptop; benchmarks/run.sh measures the 1M x 10k target with numpy alongside.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <tuple>

#include "dlfl/ranking.h"
#include "dlfl/scoring.h"
#include "synthetic_spectrum.h"

namespace {

// Spectra are generated once per shape and kept for every benchmark that uses them.
const dlfl::Spectrum& spectrum(std::size_t elements, std::size_t tests, double density, bool dense) {
  static std::map<std::tuple<std::size_t, std::size_t, double, bool>, std::unique_ptr<dlfl::Spectrum>> cache;
  auto& slot = cache[{elements, tests, density, dense}];
  if (!slot) {
    dlfl::bench::SyntheticShape shape;
    shape.elements = elements;
    shape.tests = tests;
    shape.density = density;
    dlfl::Spectrum s = dlfl::bench::synthetic_spectrum(shape);
    const dlfl::Coverage form = dense ? s.coverage().to_dense() : s.coverage().to_sparse();
    slot = std::make_unique<dlfl::Spectrum>(s.strings(), std::vector<dlfl::ElementRecord>(s.elements().begin(), s.elements().end()),
                                            s.tests(), form);
  }
  return *slot;
}

// Args: elements, tests, density in 1/10000, dense (0/1), threads.
void BM_CountsScoresRanking(benchmark::State& state) {
  const auto& s = spectrum(static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)),
                           static_cast<double>(state.range(2)) / 10000.0, state.range(3) != 0);
  const std::vector<dlfl::Formula> ochiai{dlfl::make_formula("ochiai")};
  const auto threads = static_cast<unsigned>(state.range(4));
  for (auto _ : state) {
    const dlfl::Scores scores = dlfl::score_spectrum(s, ochiai, {.threads = threads});
    auto ranking = dlfl::rank(scores.per_formula[0], s.tie_break_keys());
    benchmark::DoNotOptimize(ranking.data());
  }
  state.counters["nnz"] = static_cast<double>(s.coverage().nnz());
  state.counters["bytes"] = static_cast<double>(s.coverage().storage_bytes());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(s.coverage().storage_bytes()));
}

// The floor: summing the coverage storage's words once.
void BM_MemoryRead(benchmark::State& state) {
  const auto& s = spectrum(static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)),
                           static_cast<double>(state.range(2)) / 10000.0, state.range(3) != 0);
  for (auto _ : state) {
    std::uint64_t sum = 0;
    if (s.coverage().is_dense())
      for (auto w : s.coverage().all_bits()) sum += w;
    else
      for (auto id : s.coverage().test_ids()) sum += id;
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(s.coverage().storage_bytes()));
}

void grid(benchmark::internal::Benchmark* b, bool with_threads) {
  for (const auto& [elements, tests] : {std::pair{1000, 100}, {100000, 1000}, {1000000, 1000}})
    for (int density : {10, 100, 2000})  // 0.1%, 1%, 20%
      for (int dense : {0, 1})
        for (int threads : {1, 2}) {
          if (!with_threads && threads == 2) continue;
          b->Args({elements, tests, density, dense, threads});
        }
  b->ArgNames({"elements", "tests", "density_1e4", "dense", "threads"})->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_CountsScoresRanking)->Apply([](auto* b) { grid(b, true); });
BENCHMARK(BM_MemoryRead)->Apply([](auto* b) { grid(b, false); });

}  // namespace

BENCHMARK_MAIN();
