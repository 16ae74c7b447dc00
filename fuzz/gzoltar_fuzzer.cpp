// GZoltar 1.7+ text layout: spectra.csv, matrix.txt, tests.csv (three parts of the input).
#include "dlfl/formats/gzoltar_format.h"
#include "fuzz_support.h"
#include "spectrum_exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto parts = split_parts(data, size, 3);
  static const auto dir = scratch_dir() / "gzoltar";
  std::filesystem::create_directories(dir);
  write_file("gzoltar/spectra.csv", parts[0]);
  write_file("gzoltar/matrix.txt", parts[1]);
  write_file("gzoltar/tests.csv", parts[2]);
  expect_value_or_error([&] {
    std::vector<dlfl::io::FaultMark> marks;
    exercise_spectrum(dlfl::io::read_gzoltar(dir, &marks));
  });
  return 0;
}
