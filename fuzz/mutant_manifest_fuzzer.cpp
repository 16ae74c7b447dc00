// Mutant manifests (`dlfl mutate`'s mutants.jsonl, read back by `dlfl bench`).
#include "dlfl/lab/mutate/mutant_output.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto path = write_file("mutants.jsonl", {reinterpret_cast<const char*>(data), size});
  expect_value_or_error([&] {
    // What was read is written back the same way and reads back.
    for (const auto& mutant : dlfl::mutate::read_manifest(path)) {
      (void)dlfl::mutate::parse_manifest_line(dlfl::mutate::manifest_line(mutant), "round-trip", 1);
    }
  });
  return 0;
}
