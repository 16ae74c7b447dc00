// What dlfl collect reads from test runners: `ctest --show-only=json-v1`, GoogleTest's
// --gtest_output=json report and --gtest_list_tests output, and shard specs. The first
// byte picks the reader.
#include "dlfl/collect/test_outcome.h"
#include "dlfl/collect/test_source.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  expect_value_or_error([&] {
    switch (data[0] % 4) {
      case 0: {
        std::vector<std::string> skipped;
        (void)dlfl::collect::parse_ctest_json(text, "ctest.json", &skipped);
        break;
      }
      case 1: (void)dlfl::collect::parse_gtest_report(text, "Suite.Test", "report.json"); break;
      case 2:
        for (const auto& name : dlfl::collect::parse_gtest_list(text)) {
          (void)dlfl::collect::gtest_filter_matches("Suite.*-*Slow*:x?y", name);
        }
        break;
      default: {
        const auto shard = dlfl::collect::parse_shard(text);
        if (shard.index >= shard.count) __builtin_trap();  // documented: 0 <= I < N
        (void)dlfl::collect::name_shard_holds(shard, text);
        break;
      }
    }
  });
  return 0;
}
