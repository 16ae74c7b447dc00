// coverage.py JSON reports with per-test contexts (`dlfl collect --pytest`, `dlfl convert`).
#include "dlfl/formats/coverage_py_json.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_error([&] { (void)dlfl::io::parse_coverage_py_json(text, "coverage.json"); });
  return 0;
}
