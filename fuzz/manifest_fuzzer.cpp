// Bug-set manifests (JSON lines, `dlfl bugset import`'s output).
#include <sstream>

#include "dlfl/eval/bugset_manifest.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  expect_value_or_error([&] {
    const auto bugs = dlfl::eval::read_manifest(in, "bugs.jsonl");
    std::ostringstream out;
    dlfl::eval::write_manifest(out, bugs);  // what was read can be written back
  });
  return 0;
}
