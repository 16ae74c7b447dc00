// dlfl's native spectrum. The checksum is not verified, or almost every mutation would
// stop there: what is fuzzed is the structural validation behind it, which runs always.
#include "dlfl/formats/native_format.h"
#include "fuzz_support.h"
#include "spectrum_exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto path = write_file("spectrum.dlfl", {reinterpret_cast<const char*>(data), size});
  expect_value_or_error([&] { exercise_spectrum(dlfl::io::read_native(path, {.verify_checksum = false})); });
  return 0;
}
