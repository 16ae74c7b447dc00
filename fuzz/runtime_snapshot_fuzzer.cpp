// Runtime snapshots (the files libdlfl_rt writes while instrumented tests run).
#include "dlfl/collect/runtime_snapshot.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto path = write_file("snapshot.dlflrt", {reinterpret_cast<const char*>(data), size});
  expect_value_or_error([&] { (void)dlfl::collect::read_runtime_snapshot(path); });
  return 0;
}
