// Small spectra shared by the core tests.
#pragma once

#include <random>

#include "dlfl/spectrum.h"

namespace dlfl::testing {

// A spectrum whose counts are given per element: element i is covered by ef[i] of
// `failed` failing tests and ep[i] of `passed` passing tests.
inline Spectrum spectrum_with_counts(const std::vector<int>& ef, const std::vector<int>& ep,
                                     int failed, int passed) {
  SpectrumBuilder b;
  for (std::size_t i = 0; i < ef.size(); ++i) b.add_element("f.cpp", static_cast<std::uint32_t>(i + 1));
  for (int t = 0; t < failed + passed; ++t) {
    const bool fails = t < failed;
    const int k = fails ? t : t - failed;
    std::vector<std::uint32_t> covered;
    for (std::size_t i = 0; i < ef.size(); ++i)
      if (k < (fails ? ef[i] : ep[i])) covered.push_back(static_cast<std::uint32_t>(i));
    b.add_test(fails ? TestCase::fail("f" + std::to_string(k)) : TestCase::pass("p" + std::to_string(k)),
               covered);
  }
  return std::move(b).finish();
}

// A random spectrum (fixed seed) with some flaky tests, failing 1..3 of `runs` runs.
inline Spectrum random_spectrum(std::size_t elements, std::size_t tests, double density,
                                unsigned seed, bool flaky = true, std::uint32_t runs = 4) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution covers(density), fails(0.2), is_flaky(flaky ? 0.1 : 0.0);
  SpectrumBuilder b;
  for (std::size_t i = 0; i < elements; ++i)
    b.add_element("file" + std::to_string(i % 7) + ".cpp", static_cast<std::uint32_t>(i + 1));
  for (std::size_t t = 0; t < tests; ++t) {
    std::vector<std::uint32_t> covered;
    for (std::size_t i = 0; i < elements; ++i)
      if (covers(rng)) covered.push_back(static_cast<std::uint32_t>(i));
    TestCase test = fails(rng) ? TestCase::fail("t" + std::to_string(t)) : TestCase::pass("t" + std::to_string(t));
    if (is_flaky(rng)) test = TestCase::flaky(test.name, 1 + static_cast<std::uint32_t>(t % 3), runs);
    b.add_test(test, covered);
  }
  return std::move(b).finish();
}

}  // namespace dlfl::testing
