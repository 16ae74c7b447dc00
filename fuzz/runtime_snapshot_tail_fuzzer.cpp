// Runtime snapshots read while the writer runs (RuntimeSnapshotTail): the input's first
// four bytes are two cut offsets (little-endian u16, taken modulo the file's size + 1), the
// rest is the file. The file is written up to the first cut and polled, appended up to the
// second and polled again (the second time refusing to hand records when the high bit of
// the first cut is set), then completed and finished. What the polls and finish() hand
// must be exactly what read_runtime_snapshot gives for the whole file, or both throw
// dlfl::Error.
#include <algorithm>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/collect/runtime_snapshot.h"
#include "fuzz_support.h"

namespace {

using dlfl::collect::RuntimeSlot;
using dlfl::collect::RuntimeSnapshot;

bool same(const RuntimeSlot& a, const RuntimeSlot& b) {
  return a.name == b.name && a.state == b.state && a.outcome == b.outcome && a.begin_ns == b.begin_ns &&
         a.end_ns == b.end_ns && a.probes == b.probes;
}

bool same(const RuntimeSnapshot& a, const RuntimeSnapshot& b) {
  return a.probe_count == b.probe_count && a.map_id == b.map_id && a.pid == b.pid &&
         a.whole_process == b.whole_process && a.mpi_rank == b.mpi_rank && a.outside == b.outside &&
         std::equal(a.tests.begin(), a.tests.end(), b.tests.begin(), b.tests.end(),
                    [](const RuntimeSlot& x, const RuntimeSlot& y) { return same(x, y); });
}

void append(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::app).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  if (size < 4) return 0;
  const std::string_view file(reinterpret_cast<const char*>(data) + 4, size - 4);
  const unsigned raw_first = data[0] | data[1] << 8, raw_second = data[2] | data[3] << 8;
  std::size_t cuts[2] = {(raw_first & 0x7FFF) % (file.size() + 1), raw_second % (file.size() + 1)};
  std::sort(cuts, cuts + 2);
  const bool refuse_second = raw_first & 0x8000;

  std::optional<RuntimeSnapshot> whole;
  expect_value_or_error([&] { whole = dlfl::collect::read_runtime_snapshot(write_file("whole.dlflrt", file)); });

  const auto path = write_file("tail.dlflrt", file.substr(0, cuts[0]));
  dlfl::collect::RuntimeSnapshotTail tail(path);
  std::vector<RuntimeSlot> handed;
  const auto on_test = [&](const RuntimeSnapshot& header, RuntimeSlot&& slot) {
    // Every record comes with the header fields (the outside coverage only from finish()).
    if (header.probe_count != whole.value_or(header).probe_count) __builtin_trap();
    handed.push_back(std::move(slot));
  };
  (void)tail.poll(on_test);
  append(path, file.substr(cuts[0], cuts[1] - cuts[0]));
  (void)tail.poll(on_test, [&] { return !refuse_second; });
  append(path, file.substr(cuts[1]));
  RuntimeSnapshot parts;
  bool threw = false;
  try {
    parts = tail.finish(on_test);
    parts.tests = std::move(handed);
  } catch (const dlfl::Error&) {
    threw = true;
  }
  // Read in parts or at once, the same file gives the same tests (or the same failure).
  if (threw != !whole.has_value() || (whole && !same(*whole, parts))) __builtin_trap();
  return 0;
}
