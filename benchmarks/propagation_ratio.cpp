// propagation_ratio: what call-graph propagation adds to `dlfl rank` on the 1M-element
// benchmark spectrum (synthetic_spectrum.h, 20k functions) with a synthetic call graph of
// 10^5 functions (the spectrum's plus library functions, ~4 calls each). Prints the time
// of plain ranking (counts + Ochiai + full ranking) and of ranking with each propagation
// (join + propagation + ranking), alternating runs so both see the same load, best of N.
// Target (issue 15): propagation adds < 50% to rank's time.
// Usage: propagation_ratio [ELEMENTS TESTS RUNS [neighbors|prfl]] (default 1M 10k 3, both).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <unistd.h>
#include <string>

#include "dlfl/formula.h"
#include "dlfl/graph/call_graph_format.h"
#include "dlfl/graph/propagation.h"
#include "dlfl/ranking.h"
#include "dlfl/scoring.h"
#include "synthetic_spectrum.h"

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double seconds(F&& body) {
  const auto t0 = Clock::now();
  body();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

dlfl::graph::CallGraph synthetic_call_graph(std::size_t spectrum_functions, std::size_t total, std::uint64_t seed) {
  dlfl::graph::CallGraph g;
  for (std::size_t f = 0; f < total; ++f)
    g.add_function(f < spectrum_functions ? "fn" + std::to_string(f) : "lib::fn" + std::to_string(f));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> any(0, total - 1);
  for (std::size_t f = 0; f < total; ++f)
    for (int k = 0; k < 4; ++k) g.add_call(f, any(rng), dlfl::graph::CallKind::direct);
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  dlfl::bench::SyntheticShape shape;
  if (argc > 1) shape.elements = std::strtoull(argv[1], nullptr, 10);
  if (argc > 2) shape.tests = std::strtoull(argv[2], nullptr, 10);
  const int runs = argc > 3 ? std::atoi(argv[3]) : 3;
  const std::string only = argc > 4 ? argv[4] : "";  // "neighbors" or "prfl": that one alone
  std::printf("building a %zu x %zu spectrum (density %.2f) and a 10^5-function call graph...\n", shape.elements,
              shape.tests, shape.density);
  const dlfl::Spectrum spectrum = dlfl::bench::synthetic_spectrum(shape);
  // `dlfl rank --call-graph FILE` reads the graph from its file: that read is timed too.
  const std::filesystem::path graph_file =
      std::filesystem::temp_directory_path() / ("dlfl-propagation-ratio-" + std::to_string(::getpid()) + ".tsv");
  dlfl::graph::write_call_graph(synthetic_call_graph((shape.elements + 49) / 50, 100'000, 7), graph_file);
  const dlfl::Formula ochiai = dlfl::make_formula("ochiai");
  const auto keys = spectrum.tie_break_keys();

  double plain = 1e300, join = 1e300, read = 1e300;
  double propagated[2] = {1e300, 1e300}, propagate_only[2] = {1e300, 1e300};
  const dlfl::graph::Propagation techniques[2] = {dlfl::graph::Propagation::neighbors, dlfl::graph::Propagation::prfl};
  std::size_t checksum = 0;
  for (int r = 0; r < runs; ++r) {
    plain = std::min(plain, seconds([&] {
      const auto scores = dlfl::score_spectrum(spectrum, std::span(&ochiai, 1));
      checksum += dlfl::rank(scores.per_formula[0], keys).front().element;
    }));
    for (int t = 0; t < 2; ++t) {
      if (!only.empty() && only != dlfl::graph::propagation_name(techniques[t])) continue;
      double joined = 0, scored = 0, loaded = 0;
      propagated[t] = std::min(propagated[t], seconds([&] {
        const auto t_read = Clock::now();
        const dlfl::graph::CallGraph calls = dlfl::graph::read_call_graph(graph_file);
        const auto t0 = Clock::now();
        loaded = std::chrono::duration<double>(t0 - t_read).count();
        const auto functions = dlfl::graph::join_functions(spectrum, calls);
        const auto t1 = Clock::now();
        const auto p = dlfl::graph::propagate(spectrum, functions, ochiai, techniques[t]);
        scored = std::chrono::duration<double>(Clock::now() - t1).count();
        joined = std::chrono::duration<double>(t1 - t0).count();
        checksum += dlfl::rank(p.elements, keys).front().element;
      }));
      join = std::min(join, joined);
      read = std::min(read, loaded);
      propagate_only[t] = std::min(propagate_only[t], scored);
    }
  }
  std::printf("rank (counts + ochiai + full ranking):           %.3f s\n", plain);
  std::filesystem::remove(graph_file);
  std::printf("read the call graph file (10^5 functions, 4e5 calls): %.3f s\n", read);
  std::printf("join (functions aggregated, call graph joined):   %.3f s\n", join);
  for (int t = 0; t < 2; ++t)
    if (propagated[t] < 1e300)
      std::printf("rank --propagate %-9s (read + join + propagate + rank): %.3f s  ratio %.2f (adds %.0f%%; target < 50%%)"
                  "; of which propagate %.3f s\n",
                  std::string(dlfl::graph::propagation_name(techniques[t])).c_str(), propagated[t],
                  propagated[t] / plain, (propagated[t] / plain - 1) * 100, propagate_only[t]);
  std::printf("(checksum %zu)\n", checksum);
  return 0;
}
