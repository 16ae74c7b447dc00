// Subject files for `dlfl bench` (commands with placeholders, timeouts, mutate scope).
#include "dlfl/lab/bench/subject.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_error([&] { (void)dlfl::bench::parse_subject(text, "/fuzz/subject/dlfl-subject.json"); });
  return 0;
}
