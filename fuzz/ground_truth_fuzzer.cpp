// Ground-truth files (`file:line` a line) for `dlfl eval --truth`.
#include "dlfl/lab/eval/ground_truth.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_error([&] { (void)dlfl::eval::parse_ground_truth(text, "truth.txt"); });
  return 0;
}
