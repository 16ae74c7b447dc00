// Synthetic spectra for benchmarks: random element-major coverage at a given density,
// built directly in the model's storage (no per-element allocation), deterministic.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::bench {

struct SyntheticShape {
  std::size_t elements = 1'000'000;
  std::size_t tests = 10'000;
  double density = 0.01;       // share of (test, element) pairs covered
  double failing = 0.02;       // share of failing tests
  double flaky = 0.01;         // share of tests with a fractional outcome
  std::uint64_t seed = 20261122;
};

// Elements are lines of 1000-line files; each element's tests are drawn by geometric
// skips, so generation costs O(nnz), not O(elements × tests).
inline Spectrum synthetic_spectrum(const SyntheticShape& shape) {
  std::mt19937_64 rng(shape.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<ElementRecord> records(shape.elements);
  StringPool strings;
  for (std::size_t e = 0; e < shape.elements; ++e) {
    if (e % 1000 == 0) records[e].file = strings.intern("src/file" + std::to_string(e / 1000) + ".cpp");
    else records[e].file = records[e - 1].file;
    if (e % 50 == 0) records[e].function = strings.intern("fn" + std::to_string(e / 50));
    else records[e].function = records[e - 1].function;
    records[e].first_line = records[e].last_line = static_cast<std::uint32_t>(e % 1000 + 1);
    // As collectors write them: a file without languages is one from an older dlfl, whose
    // readers copy the element table to infer them.
    records[e].language = Language::cpp;
  }
  std::vector<TestCase> tests(shape.tests);
  for (std::size_t t = 0; t < shape.tests; ++t) {
    tests[t].name = "Suite.Test" + std::to_string(t);
    const double u = unit(rng);
    if (u < shape.failing) tests[t].failure_weight = 1.0, tests[t].status = TestStatus::failed;
    else if (u < shape.failing + shape.flaky) tests[t].failure_weight = 0.25, tests[t].status = TestStatus::flaky;
  }
  std::vector<std::uint64_t> offsets;
  offsets.reserve(shape.elements + 1);
  offsets.push_back(0);
  std::vector<std::uint32_t> ids;
  ids.reserve(static_cast<std::size_t>(static_cast<double>(shape.elements) * static_cast<double>(shape.tests) *
                                       shape.density * 1.01) + 16);
  const double log_miss = std::log1p(-shape.density);
  for (std::size_t e = 0; e < shape.elements; ++e) {
    double t = -1;
    for (;;) {
      t += 1 + std::floor(std::log(1.0 - unit(rng)) / log_miss);
      if (t >= static_cast<double>(shape.tests)) break;
      ids.push_back(static_cast<std::uint32_t>(t));
    }
    offsets.push_back(ids.size());
  }
  Coverage coverage(shape.tests, std::move(offsets), std::move(ids), /*validate=*/false);
  return Spectrum(std::move(strings), std::move(records), std::move(tests), std::move(coverage));
}

}  // namespace dlfl::bench
