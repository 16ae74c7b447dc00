// The run report python/dlfl_pytest writes (pytest-run.json).
#include "dlfl/formats/pytest_run_report.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_error([&] { (void)dlfl::io::parse_pytest_run_report(text, "pytest-run.json"); });
  return 0;
}
