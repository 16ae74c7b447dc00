// Result tables for `dlfl compare` (dlfl eval's CSV, Jahan et al.'s tables); the first
// byte picks header handling and a filter, so both paths of the reader are reached.
#include "dlfl/lab/eval/compare_table.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  dlfl::eval::ResultTableOptions options;
  if (data[0] & 1) options.columns = {"project", "bug", "technique", "first_rank", "rr", "ap"};
  if (data[0] & 2) options.no_header = !options.columns.empty();
  if (data[0] & 4) options.filters = {{"technique", "ochiai"}};
  expect_value_or_error([&] { (void)dlfl::eval::parse_result_table(text, "table.csv", options); });
  return 0;
}
