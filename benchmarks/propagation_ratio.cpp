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
#include <optional>
#include <random>
#include <ctime>
#include <unistd.h>
#include <string>

#include "dlfl/formula.h"
#include "dlfl/graph/call_graph_cache.h"
#include "dlfl/graph/call_graph_format.h"
#include "dlfl/files/text_file.h"
#include "dlfl/graph/propagation.h"
#include "dlfl/ranking.h"
#include "dlfl/scoring.h"
#include "synthetic_spectrum.h"

namespace {

using Clock = std::chrono::steady_clock;

// Process CPU time (all threads): on the shared 2-core machine wall times swing with
// the load, CPU times much less.
double cpu_now() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Timing {
  double wall = 1e300, cpu = 1e300;
  void keep_best(double w, double c) { wall = std::min(wall, w), cpu = std::min(cpu, c); }
};

template <class F>
void timed(Timing& best, F&& body) {
  const double c0 = cpu_now();
  const auto t0 = Clock::now();
  body();
  best.keep_best(std::chrono::duration<double>(Clock::now() - t0).count(), cpu_now() - c0);
}

// FNV-1a over the bytes of every score: two builds that print the same value computed
// the same scores bit for bit (the checksum only compares the top elements).
std::uint64_t fingerprint(std::uint64_t h, const Eigen::ArrayXd& scores) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(scores.data());
  for (std::size_t i = 0; i < static_cast<std::size_t>(scores.size()) * sizeof(double); ++i)
    h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
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

  Timing plain, read, join, propagated[2], propagate_only[2], parse, first_read;
  // The first read parses the text and writes FILE.cache; `dlfl rank` reads the cache.
  const auto cache = dlfl::graph::call_graph_cache_path(graph_file);
  timed(first_read, [&] { dlfl::graph::read_call_graph_cached(graph_file); });
  for (int r = 0; r < runs; ++r)
    timed(parse, [&] { dlfl::graph::parse_call_graph(dlfl::io::read_file_bytes(graph_file), graph_file.string()); });
  const dlfl::graph::Propagation techniques[2] = {dlfl::graph::Propagation::neighbors, dlfl::graph::Propagation::prfl};
  std::size_t checksum = 0;
  std::uint64_t scores_fingerprint[2] = {14695981039346656037ull, 14695981039346656037ull};
  for (int r = 0; r < runs; ++r) {
    timed(plain, [&] {
      const auto scores = dlfl::score_spectrum(spectrum, std::span(&ochiai, 1));
      checksum += dlfl::rank(scores.per_formula[0], keys).front().element;
    });
    for (int t = 0; t < 2; ++t) {
      if (!only.empty() && only != dlfl::graph::propagation_name(techniques[t])) continue;
      timed(propagated[t], [&] {
        std::optional<dlfl::graph::CompactCallGraph> calls;
        timed(read, [&] { calls = dlfl::graph::read_call_graph_cached(graph_file); });
        std::optional<dlfl::graph::FunctionGraph> functions;
        timed(join, [&] { functions = dlfl::graph::join_functions(spectrum, *calls); });
        std::optional<dlfl::graph::PropagatedScores> p;
        timed(propagate_only[t], [&] { p = dlfl::graph::propagate(spectrum, *functions, ochiai, techniques[t]); });
        checksum += dlfl::rank(p->elements, keys).front().element;
        if (r == 0) scores_fingerprint[t] = fingerprint(fingerprint(scores_fingerprint[t], p->functions), p->elements);
      });
    }
  }
  std::filesystem::remove(graph_file);
  std::filesystem::remove(cache);
  std::printf("best of %d runs, wall s (cpu s, all threads)\n", runs);
  std::printf("rank (counts + ochiai + full ranking):           %.3f (cpu %.3f)\n", plain.wall, plain.cpu);
  std::printf("parse the call graph file (10^5 functions, 4e5 calls): %.3f (cpu %.3f)\n", parse.wall, parse.cpu);
  std::printf("first read (parse + write FILE.cache):           %.3f (cpu %.3f)\n", first_read.wall, first_read.cpu);
  std::printf("read through FILE.cache (hash the text, load):   %.3f (cpu %.3f)\n", read.wall, read.cpu);
  std::printf("join (functions aggregated, call graph joined):   %.3f (cpu %.3f)\n", join.wall, join.cpu);
  for (int t = 0; t < 2; ++t)
    if (propagated[t].wall < 1e300)
      std::printf("rank --propagate %-9s (read + join + propagate + rank): %.3f (cpu %.3f)  ratio %.2f, cpu ratio %.2f "
                  "(target < 1.5); of which propagate %.3f (cpu %.3f); scores fingerprint %016llx\n",
                  std::string(dlfl::graph::propagation_name(techniques[t])).c_str(), propagated[t].wall,
                  propagated[t].cpu, propagated[t].wall / plain.wall, propagated[t].cpu / plain.cpu,
                  propagate_only[t].wall, propagate_only[t].cpu,
                  static_cast<unsigned long long>(scores_fingerprint[t]));
  std::printf("(checksum %zu)\n", checksum);
  return 0;
}
