// make_spectrum: writes a synthetic spectrum as a native .dlfl file plus the raw COO
// arrays (tests.u32, elements.u32, weights.f64) that benchmarks/numpy_reference.py loads.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "dlfl/formats/native_format.h"
#include "synthetic_spectrum.h"

namespace {

template <class T>
void write_raw(const std::filesystem::path& path, const std::vector<T>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5 && argc != 7) {
    std::cerr << "usage: make_spectrum ELEMENTS TESTS DENSITY OUT_DIR [FAILING FLAKY]\n";
    return 2;
  }
  dlfl::bench::SyntheticShape shape;
  shape.elements = std::stoull(argv[1]);
  shape.tests = std::stoull(argv[2]);
  shape.density = std::stod(argv[3]);
  const std::filesystem::path dir = argv[4];
  if (argc == 7) {  // shares of failing and flaky tests (default 2% and 1%; 0 flaky = binary outcomes)
    shape.failing = std::stod(argv[5]);
    shape.flaky = std::stod(argv[6]);
  }
  std::filesystem::create_directories(dir);
  const dlfl::Spectrum generated = dlfl::bench::synthetic_spectrum(shape);
  // In the storage form dlfl would pick (bit words above ~1/32 density), as
  // SpectrumBuilder and the readers do.
  const dlfl::Spectrum s(generated.strings(),
                         std::vector<dlfl::ElementRecord>(generated.elements().begin(), generated.elements().end()),
                         generated.tests(), generated.coverage().compact());
  dlfl::io::write_native(s, dir / "spectrum.dlfl");
  // COO for numpy: one (test, element) pair per covered cell, plus per-test weights.
  std::vector<std::uint32_t> tests, elements;
  tests.reserve(s.coverage().nnz());
  elements.reserve(s.coverage().nnz());
  for (std::size_t e = 0; e < s.element_count(); ++e)
    for (auto t : s.coverage().tests_of(e)) {
      tests.push_back(t);
      elements.push_back(static_cast<std::uint32_t>(e));
    }
  std::vector<double> weights;
  for (const auto& t : s.tests()) weights.push_back(t.failure_weight);
  write_raw(dir / "tests.u32", tests);
  write_raw(dir / "elements.u32", elements);
  write_raw(dir / "weights.f64", weights);
  std::ofstream(dir / "shape.txt") << s.element_count() << ' ' << s.test_count() << ' ' << s.coverage().nnz() << '\n';
  std::cout << "elements " << s.element_count() << " tests " << s.test_count() << " nnz " << s.coverage().nnz() << "\n";
  return 0;
}
