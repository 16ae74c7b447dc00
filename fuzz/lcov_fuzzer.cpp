// lcov tracefiles with per-test sections as a spectrum (`dlfl convert x.info`): the trace
// and its sidecar t.tests.csv (two parts of the input).
#include "dlfl/formats/lcov_format.h"
#include "fuzz_support.h"
#include "spectrum_exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto parts = split_parts(data, size, 2);
  const auto trace = write_file("t.info", parts[0]);
  write_file("t.tests.csv", parts[1]);
  expect_value_or_error([&] { exercise_spectrum(dlfl::io::read_lcov(trace)); });
  return 0;
}
