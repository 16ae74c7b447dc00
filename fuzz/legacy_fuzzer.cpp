// GZoltar's legacy pair: matrix and spectra (two parts of the input).
#include "dlfl/formats/legacy_format.h"
#include "fuzz_support.h"
#include "spectrum_exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto parts = split_parts(data, size, 2);
  static const auto dir = scratch_dir() / "legacy";
  std::filesystem::create_directories(dir);
  write_file("legacy/matrix", parts[0]);
  write_file("legacy/spectra", parts[1]);
  expect_value_or_error([&] { exercise_spectrum(dlfl::io::read_legacy(dir)); });
  return 0;
}
