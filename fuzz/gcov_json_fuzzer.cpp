// gcov's JSON intermediate format (`gcov --json-format --stdout`: one document a line).
#include "dlfl/collect/coverage_formats.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_error([&] {
    dlfl::collect::CoverageReport report;
    std::vector<std::string> data_files;
    dlfl::collect::parse_gcov_json(text, "a.gcov.json", report, &data_files);
  });
  return 0;
}
