// Benchmark files for `dlfl bench` (subjects, formulas, top N, jobs).
#include "dlfl/lab/bench/bench_config.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_error([&] {
    const auto config = dlfl::bench::parse_bench_config(text, "/fuzz/bench.json");
    if (config.jobs == 0 || config.jobs > 256) __builtin_trap();  // the reader's bound
  });
  return 0;
}
