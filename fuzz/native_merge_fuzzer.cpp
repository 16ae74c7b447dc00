// `dlfl merge` of two native spectra (two parts of the input), then the merged file read
// back. Each part gets a valid checksum here (XXH3 of bytes 8..24 and 32..end into bytes
// 24..32, as native_format.cpp checks it), so mutations reach the structural validation
// and the merge rather than stopping at the transit check.
#include <cstring>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "dlfl/formats/native_format.h"
#include "dlfl/formats/spectrum_merge.h"
#include "fuzz_support.h"
#include "spectrum_exercise.h"

namespace {

std::string with_checksum(std::string_view part) {
  std::string bytes(part);
  constexpr std::size_t kHeader = 32, kChecksumAt = 24;
  if (bytes.size() < kHeader) return bytes;
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, bytes.data() + 8, 16);
  XXH3_64bits_update(state, bytes.data() + kHeader, bytes.size() - kHeader);
  const std::uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  std::memcpy(bytes.data() + kChecksumAt, &sum, sizeof sum);
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto parts = split_parts(data, size, 2);
  const std::filesystem::path inputs[] = {write_file("a.dlfl", with_checksum(parts[0])),
                                          write_file("b.dlfl", with_checksum(parts[1]))};
  const auto output = scratch_dir() / "merged.dlfl";
  expect_value_or_error([&] {
    // Disjoint inputs merged too: the refusal would cut the merge short for most inputs.
    (void)dlfl::io::merge_spectra(inputs, output, dlfl::io::SpectrumFormat::native, {.allow_disjoint = true});
    exercise_spectrum(dlfl::io::read_native(output));
  });
  return 0;
}
