// runtime_collect: one collect_with_runtime() run without the CLI around it (no option
// parsing, path filter or progress), to time the library alone against
// `dlfl collect --runtime`, which benchmarks/runtime_vs_gcov.py times.
//   runtime_collect BINARY PROBE_MAP OUT.dlfl
#include <chrono>
#include <iostream>

#include "dlfl/collect/runtime_collector.h"
#include "dlfl/error.h"
#include "dlfl/io/spectrum_formats.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: runtime_collect GTEST_BINARY PROBE_MAP OUT.dlfl\n";
    return 2;
  }
  try {
    dlfl::collect::RuntimeCollectOptions o;
    o.gtest_binary = argv[1];
    o.probe_map = argv[2];
    const auto result = dlfl::collect::collect_with_runtime(o);
    dlfl::io::write_spectrum(result.spectrum, argv[3], dlfl::io::SpectrumFormat::native);
    std::cout << "tests " << result.stats.tests << " failing " << result.stats.failing << " processes "
              << result.stats.processes << " elements " << result.spectrum.element_count() << " seconds "
              << result.stats.seconds << '\n';
    for (const auto& w : result.warnings) std::cerr << "runtime_collect: warning: " << w << '\n';
  } catch (const dlfl::Error& e) {
    std::cerr << "runtime_collect: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
