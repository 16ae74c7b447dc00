// Matrix Market coverage: NAME.mtx, NAME.tests.csv, NAME.elements.csv (three parts).
#include "dlfl/formats/matrix_market_format.h"
#include "fuzz_support.h"
#include "spectrum_exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto parts = split_parts(data, size, 3);
  const auto mtx = write_file("m.mtx", parts[0]);
  write_file("m.tests.csv", parts[1]);
  write_file("m.elements.csv", parts[2]);
  expect_value_or_error([&] { exercise_spectrum(dlfl::io::read_matrix_market(mtx)); });
  return 0;
}
