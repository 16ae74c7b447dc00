// PRFL's walk on the function-test incidence: page_rank()'s power iteration, pushed source
// by source in node order so every target sums its inputs in page_rank()'s order.
#include "prfl_walk.h"

#include <algorithm>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <bit>
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <thread>

#include "dlfl/error.h"
#include "dlfl/graph/page_rank.h"
#include "../core/popcnt_clones.h"

namespace dlfl::graph::detail {
namespace {

// Set bits of `row`'s `words` words that `mask` (null = all) has: the popcount
// instruction where the CPU has it, as the counts' dense rows (lib/core/counts.cpp).
DLFL_POPCNT_CLONES
std::size_t popcount_row(const std::uint64_t* row, const std::uint64_t* mask, std::size_t words) {
  std::size_t c = 0;
  for (std::size_t w = 0; w < words; ++w) c += static_cast<std::size_t>(std::popcount(mask ? row[w] & mask[w] : row[w]));
  return c;
}

// sums[c] += push for each column c of `row`'s words [w0, w1) that `mask` (null = all)
// has: one add per column, in column order, as page_rank()'s push does.
void push_bits_scalar(const std::uint64_t* row, const std::uint64_t* mask, std::size_t w0, std::size_t w1, double push,
                      double* sums) {
  for (std::size_t w = w0; w < w1; ++w)
    for (std::uint64_t b = mask ? row[w] & mask[w] : row[w]; b; b &= b - 1)
      sums[w * 64 + static_cast<std::size_t>(std::countr_zero(b))] += push;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DLFL_PRFL_AVX512 1
// The same adds, eight lanes at a time under the row's bits: a masked add leaves the
// other lanes untouched and a masked load/store touches no column outside the mask, so
// every sum gets the very same additions (IEEE adds, no contraction) in the same order.
// At 40% density this is ~8x fewer instructions than a loop over the set bits.
__attribute__((target("avx512f"))) void push_bits_avx512(const std::uint64_t* row, const std::uint64_t* mask,
                                                           std::size_t w0, std::size_t w1, double push, double* sums) {
  const __m512d p = _mm512_set1_pd(push);
  for (std::size_t w = w0; w < w1; ++w) {
    const std::uint64_t b = mask ? row[w] & mask[w] : row[w];
    if (!b) continue;
    double* s = sums + w * 64;
    // All eight byte lanes, unconditionally: an empty mask loads and stores nothing, and
    // at the densities bit rows are chosen for a branch per byte costs more than it saves.
    for (unsigned k = 0; k < 8; ++k) {
      const auto lanes = static_cast<__mmask8>(b >> (8 * k));
      const __m512d v = _mm512_maskz_loadu_pd(lanes, s + 8 * k);
      _mm512_mask_storeu_pd(s + 8 * k, lanes, _mm512_add_pd(v, p));
    }
  }
}
#endif

bool vector_push = true;  // tests turn it off to check the scalar loop gives the same doubles

void push_bits(const std::uint64_t* row, const std::uint64_t* mask, std::size_t w0, std::size_t w1, double push,
               double* sums) {
#ifdef DLFL_PRFL_AVX512
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512 && vector_push) return push_bits_avx512(row, mask, w0, w1, push, sums);
#endif
  push_bits_scalar(row, mask, w0, w1, push, sums);
}

// Rows of ascending column numbers: bit rows (dense) or id lists (sparse), either viewed
// (the function unions' own coverage) or owned (their transpose).
struct Rows {
  std::size_t words = 0;  // dense: words per row; 0 = sparse
  std::span<const std::uint64_t> bits;
  std::span<const std::uint64_t> offsets;
  std::span<const std::uint32_t> ids;
  std::vector<std::uint64_t> own_bits, own_offsets;
  std::vector<std::uint32_t> own_ids;

  // Columns per pass over the rows: 2048 sums (16 KB) for bit rows; id lists in one pass
  // (a binary search per row and block would cost more than it saves).
  std::size_t block() const noexcept { return words ? 2048 : ~std::size_t{0} / 2; }

  // sums[c] += push for the row's columns c in [first, last) (first a multiple of 64)
  // that `mask` (a bitset over columns; null = all) has, ascending.
  void push(std::size_t row, std::size_t first, std::size_t last, const std::uint64_t* mask, double value,
            double* sums) const {
    if (words) return push_bits(bits.data() + row * words, mask, first / 64, (last + 63) / 64, value, sums);
    for_each(row, first, last, mask, [&](std::size_t c) { sums[c] += value; });
  }

  // How many of the row's columns `mask` (null = all) has.
  std::size_t count(std::size_t row, const std::uint64_t* mask) const {
    if (words) return popcount_row(bits.data() + row * words, mask, words);
    std::size_t c = 0;
    for_each(row, 0, ~std::size_t{0} / 2, mask, [&](std::size_t) { ++c; });
    return c;
  }

  // fn(column) for the row's columns in [first, last) (first a multiple of 64) that
  // `mask` (a bitset over columns; null = all) has, ascending.
  template <class Fn>
  void for_each(std::size_t row, std::size_t first, std::size_t last, const std::uint64_t* mask, Fn&& fn) const {
    if (words) {
      const std::uint64_t* r = bits.data() + row * words;
      for (std::size_t w = first / 64; w < (last + 63) / 64; ++w)
        for (std::uint64_t b = mask ? r[w] & mask[w] : r[w]; b; b &= b - 1)
          fn(w * 64 + static_cast<std::size_t>(std::countr_zero(b)));
      return;
    }
    const std::uint32_t* begin = ids.data() + offsets[row];
    const std::uint32_t* end = ids.data() + offsets[row + 1];
    for (const std::uint32_t* p = first ? std::lower_bound(begin, end, static_cast<std::uint32_t>(first)) : begin;
         p != end && *p < last; ++p)
      if (!mask || (mask[*p >> 6] >> (*p & 63) & 1)) fn(static_cast<std::size_t>(*p));
  }
};

// [first, last) of part `part` of [0, columns) cut in `parts` at multiples of 64 (so no
// two parts share a word of a bit row).
std::pair<std::size_t, std::size_t> part_of(std::size_t columns, unsigned part, unsigned parts) {
  const auto cut = [&](unsigned k) { return k == parts ? columns : columns * k / parts / 64 * 64; };
  return {cut(part), cut(part + 1)};
}

// body(part, parts) on two threads when `parallel`, else body(0, 1).
template <class Body>
void run_parts(bool parallel, Body&& body) {
  if (!parallel) {
    body(0u, 1u);
    return;
  }
  std::jthread second([&] { body(1u, 2u); });
  body(0u, 2u);
}

void check_weight(double w) {
  if (!(w > 0) || !std::isfinite(w)) throw Error("page_rank: edge weight " + std::to_string(w) + " is not positive");
}

// The tests of one side: those with a positive weight, numbered as test nodes.
struct Side {
  std::vector<std::uint64_t> bits;           // over raw test ids
  std::vector<std::uint32_t> tests;          // test of each test node
  std::vector<std::uint32_t> node_of_test;   // raw test id -> its test node (0 when off the side)
};

Side side_of(const std::vector<double>& side_weight) {
  const std::size_t tests = side_weight.size();
  Side s;
  s.bits.assign((tests + 63) / 64, 0);
  for (std::size_t t = 0; t < tests; ++t)
    if (side_weight[t] > 0) {
      s.bits[t / 64] |= std::uint64_t{1} << (t % 64);
      s.tests.push_back(static_cast<std::uint32_t>(t));
    }
  s.node_of_test.assign(tests, 0);
  for (std::size_t i = 0; i < s.tests.size(); ++i) s.node_of_test[s.tests[i]] = static_cast<std::uint32_t>(i);
  return s;
}

// The function-test incidence of one side, in both directions.
struct Incidence {
  Rows by_function;  // functions → tests: the unions' coverage as it is (all tests, masked by the side)
  Rows by_test;      // test nodes → functions: its transpose over the side's tests, ascending
  std::vector<std::uint32_t> covering;      // per function: its tests on this side
  std::vector<std::uint64_t> functions_of;  // per test node: its functions (out-degree)
};

Incidence incidence(const FunctionGraph& g, const Side& side, std::size_t tests, bool parallel) {
  const Coverage& cov = g.functions.spectrum.coverage();
  const std::size_t n = g.size(), m = side.tests.size();
  Incidence in;
  Rows& by_function = in.by_function;
  if (cov.is_dense()) {
    by_function.words = cov.words_per_element();
    by_function.bits = cov.all_bits();
  } else {
    by_function.offsets = cov.offsets();
    by_function.ids = cov.test_ids();
  }
  in.covering.assign(n, 0);
  in.functions_of.assign(m, 0);
  run_parts(parallel, [&](unsigned part, unsigned parts) {
    const auto [first, last] = part_of(n, part, parts);
    for (std::size_t f = first; f < last; ++f) in.covering[f] = static_cast<std::uint32_t>(by_function.count(f, side.bits.data()));
  });
  std::size_t pairs = 0;
  for (const auto c : in.covering) pairs += c;
  Rows& by_test = in.by_test;
  if (dense_is_smaller(n, m, pairs)) {
    by_test.words = (n + 63) / 64;
    by_test.own_bits.assign(m * by_test.words, 0);
    by_test.bits = by_test.own_bits;
    run_parts(parallel, [&](unsigned part, unsigned parts) {
      const auto [t_first, t_last] = part_of(tests, part, parts);
      for (std::size_t f = 0; f < n; ++f)
        by_function.for_each(f, t_first, t_last, side.bits.data(), [&](std::size_t t) {
          by_test.own_bits[side.node_of_test[t] * by_test.words + f / 64] |= std::uint64_t{1} << (f % 64);
        });
    });
    for (std::size_t i = 0; i < m; ++i) in.functions_of[i] = by_test.count(i, nullptr);
  } else {
    for (std::size_t f = 0; f < n; ++f)
      by_function.for_each(f, 0, tests, side.bits.data(), [&](std::size_t t) { ++in.functions_of[side.node_of_test[t]]; });
    by_test.own_offsets.assign(m + 1, 0);
    for (std::size_t i = 0; i < m; ++i) by_test.own_offsets[i + 1] = by_test.own_offsets[i] + in.functions_of[i];
    by_test.own_ids.resize(pairs);
    std::vector<std::uint64_t> next(by_test.own_offsets.begin(), by_test.own_offsets.end() - 1);
    for (std::size_t f = 0; f < n; ++f)
      by_function.for_each(f, 0, tests, side.bits.data(), [&](std::size_t t) {
        by_test.own_ids[next[side.node_of_test[t]]++] = static_cast<std::uint32_t>(f);
      });
    by_test.offsets = by_test.own_offsets;
    by_test.ids = by_test.own_ids;
  }
  return in;
}

// Edge weights and out-weights as page_rank() sums them: a function's test edges, then
// its callee and caller edges, added one by one.
struct EdgeWeights {
  std::vector<double> test_edge, call_edge;  // per function: the weight of each of its test / call edges
  std::vector<double> out_weight;            // per node
  std::vector<std::uint64_t> calls;          // per function: callees + callers
};

EdgeWeights edge_weights(const FunctionGraph& g, const Incidence& in, double call_share, bool parallel) {
  const std::size_t n = g.size(), m = in.functions_of.size();
  EdgeWeights e;
  e.test_edge.assign(n, 0);
  e.call_edge.assign(n, 0);
  e.out_weight.assign(n + m, 0);
  e.calls.resize(n);
  for (std::size_t f = 0; f < n; ++f) {
    const std::uint64_t covering = in.covering[f];
    e.calls[f] = (g.callee_offsets[f + 1] - g.callee_offsets[f]) + (g.caller_offsets[f + 1] - g.caller_offsets[f]);
    const double test_share = e.calls[f] == 0 ? 1.0 : 1.0 - call_share;
    const double share = covering == 0 ? 1.0 : call_share;
    e.test_edge[f] = test_share / static_cast<double>(covering ? covering : 1);
    e.call_edge[f] = share / static_cast<double>(e.calls[f] ? e.calls[f] : 1);
    if (covering) check_weight(e.test_edge[f]);
    if (e.calls[f]) check_weight(e.call_edge[f]);
  }
  // The function out-weights are sums of up to `tests` terms each: split over the functions.
  run_parts(parallel, [&](unsigned part, unsigned parts) {
    const auto [first, last] = part_of(n, part, parts);
    for (std::size_t f = first; f < last; ++f) {
      double w = 0;
      for (std::uint64_t k = 0; k < in.covering[f]; ++k) w += e.test_edge[f];
      for (std::uint64_t k = 0; k < e.calls[f]; ++k) w += e.call_edge[f];
      e.out_weight[f] = w;
    }
  });
  for (std::size_t i = 0; i < m; ++i) {
    double w = 0;
    for (std::uint64_t k = 0; k < in.functions_of[i]; ++k) w += 1.0;
    e.out_weight[n + i] = w;
  }
  return e;
}

// Function f's callers-and-callees as page_rank() pushes them: sources in order, each
// source's callees then callers (a function both calls and is called by f: twice).
struct CallSources {
  std::vector<std::uint64_t> offsets;  // per target function, into sources
  std::vector<std::uint32_t> sources;
};

CallSources call_sources(const FunctionGraph& g) {
  const std::size_t n = g.size();
  CallSources c;
  c.offsets.assign(n + 1, 0);
  for (std::size_t f = 0; f < n; ++f) {
    for (auto k = g.callee_offsets[f]; k < g.callee_offsets[f + 1]; ++k) ++c.offsets[g.callees[k] + 1];
    for (auto k = g.caller_offsets[f]; k < g.caller_offsets[f + 1]; ++k) ++c.offsets[g.callers[k] + 1];
  }
  for (std::size_t f = 0; f < n; ++f) c.offsets[f + 1] += c.offsets[f];
  c.sources.resize(c.offsets[n]);
  std::vector<std::uint64_t> next(c.offsets.begin(), c.offsets.end() - 1);
  for (std::size_t f = 0; f < n; ++f) {
    for (auto k = g.callee_offsets[f]; k < g.callee_offsets[f + 1]; ++k) c.sources[next[g.callees[k]]++] = static_cast<std::uint32_t>(f);
    for (auto k = g.caller_offsets[f]; k < g.caller_offsets[f + 1]; ++k) c.sources[next[g.callers[k]]++] = static_cast<std::uint32_t>(f);
  }
  return c;
}

// page_rank()'s teleport: the side's weights on the test nodes, normalized.
Eigen::VectorXd teleport_of(const Side& side, const std::vector<double>& side_weight, std::size_t n) {
  const std::size_t m = side.tests.size();
  Eigen::VectorXd teleport = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n + m));
  for (std::size_t i = 0; i < m; ++i) teleport[static_cast<Eigen::Index>(n + i)] = side_weight[side.tests[i]];
  const double total = teleport.sum();
  return Eigen::VectorXd(teleport / total);
}

// page_rank()'s power iteration over the walk, from `teleport`.
Eigen::VectorXd iterate(const Side& side, const Incidence& in, const EdgeWeights& e, const CallSources& c,
                        const Eigen::VectorXd& teleport, double damping, std::size_t tests, bool parallel) {
  const std::size_t n = in.covering.size(), m = side.tests.size(), nodes = n + m;
  Eigen::VectorXd rank = teleport, next(static_cast<Eigen::Index>(nodes));
  std::vector<double> from_function(n), from_test(tests, 0);  // share x edge weight of each source
  std::vector<double> call_push(n);
  const PageRankOptions iteration;  // prfl's: page_rank()'s default tolerance and cap
  for (unsigned it = 0; it < iteration.max_iterations; ++it) {
    double dangling = 0;
    for (std::size_t v = 0; v < nodes; ++v) {
      const bool has_edges = v < n ? in.covering[v] + e.calls[v] > 0 : in.functions_of[v - n] > 0;
      if (!has_edges) {
        dangling += rank[static_cast<Eigen::Index>(v)];
        continue;
      }
      const double share = rank[static_cast<Eigen::Index>(v)] / e.out_weight[v];
      if (v < n) {
        from_function[v] = share * e.test_edge[v];
        call_push[v] = share * e.call_edge[v];
      } else {
        from_test[side.tests[v - n]] = share * 1.0;
      }
    }
    next.setZero();
    // Function targets get their call edges first (function sources precede test sources
    // in page_rank()'s node order), then the tests' pushes, test by test.
    for (std::size_t f = 0; f < n; ++f)
      for (auto k = c.offsets[f]; k < c.offsets[f + 1]; ++k) next[static_cast<Eigen::Index>(f)] += call_push[c.sources[k]];
    // Test targets get the functions' pushes, function by function (by raw test id here).
    std::vector<double> to_test(tests, 0);
    // Each thread owns half of the functions and half of the tests as targets; targets
    // are taken a block at a time, so the sums being pushed to stay in L1 while every
    // source passes over them (sources still in order for each target).
    run_parts(parallel, [&](unsigned part, unsigned parts) {
      const auto [f_first, f_last] = part_of(n, part, parts);
      for (std::size_t lo = f_first; lo < f_last; lo += in.by_test.block()) {
        const std::size_t hi = std::min(f_last, lo + in.by_test.block());
        for (std::size_t i = 0; i < m; ++i) {
          const double push = from_test[side.tests[i]];
          in.by_test.push(i, lo, hi, nullptr, push, next.data());
        }
      }
      const auto [t_first, t_last] = part_of(tests, part, parts);
      for (std::size_t lo = t_first; lo < t_last; lo += in.by_function.block()) {
        const std::size_t hi = std::min(t_last, lo + in.by_function.block());
        for (std::size_t f = 0; f < n; ++f) {
          if (in.covering[f] == 0) continue;
          const double push = from_function[f];
          in.by_function.push(f, lo, hi, side.bits.data(), push, to_test.data());
        }
      }
    });
    for (std::size_t i = 0; i < m; ++i) next[static_cast<Eigen::Index>(n + i)] = to_test[side.tests[i]];
    next = damping * (next + dangling * teleport) + (1.0 - damping) * teleport;
    const double change = (next - rank).lpNorm<1>();
    rank.swap(next);
    if (change < iteration.tolerance) break;
  }
  return rank;
}

}  // namespace

void use_vector_push(bool on) { vector_push = on; }

PrflWalk prfl_walk(const FunctionGraph& g, const std::vector<double>& side_weight, double damping, double call_share) {
  const std::size_t tests = side_weight.size();
  const Side side = side_of(side_weight);
  // Setting up reads the 79M pairs of the benchmark spectrum three times: on two threads
  // when the coverage is that large (each owning functions, or tests, as below).
  const bool parallel =
      g.functions.spectrum.coverage().nnz() >= (std::size_t{1} << 20) && std::thread::hardware_concurrency() >= 2;
  Incidence in = incidence(g, side, tests, parallel);
  const EdgeWeights weights = edge_weights(g, in, call_share, parallel);
  const CallSources calls = call_sources(g);
  const Eigen::VectorXd teleport = teleport_of(side, side_weight, g.size());
  PrflWalk out;
  out.rank = iterate(side, in, weights, calls, teleport, damping, tests, parallel);
  out.covering = std::move(in.covering);
  return out;
}

}  // namespace dlfl::graph::detail
