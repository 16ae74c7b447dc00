// llvm-cov export: the JSON function extents and the lcov tracefile; the first byte
// picks which.
#include "dlfl/collect/coverage_formats.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  expect_value_or_error([&] {
    dlfl::collect::CoverageReport report;
    if (data[0] & 1) dlfl::collect::parse_lcov(text, "coverage.lcov", report);
    else dlfl::collect::parse_llvm_export_functions(text, "export.json", report);
  });
  return 0;
}
