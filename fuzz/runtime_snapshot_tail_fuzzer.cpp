// Runtime snapshots read while the writer runs (RuntimeSnapshotTail): the input's first
// four bytes are two cut offsets (little-endian u16, taken modulo the file's size + 1), the
// rest is the file. The file is shown to the tail as the writer would leave it: first its
// bytes up to the first cut, with records_end no further than the cut (records are
// published after their bytes), polled; then up to the second cut, polled again (refusing
// to hand records when the high bit of the first cut is set); then whole, finished. What
// the polls and finish() hand must be exactly what read_runtime_snapshot gives for the
// whole file, or both throw dlfl::Error. running_test() reads each state too.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/collect/runtime_snapshot.h"
#include "dlfl_rt/dlfl_rt_file.h"
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

// The file's first `cut` bytes, records_end (when they hold it) at most `cut`.
std::string written_up_to(std::string_view file, std::size_t cut) {
  std::string bytes(file.substr(0, cut));
  constexpr std::size_t at = offsetof(dlfl_rt_file_header, records_end);
  std::uint64_t end = 0;
  if (bytes.size() >= at + sizeof end) {
    std::memcpy(&end, bytes.data() + at, sizeof end);
    end = std::min<std::uint64_t>(end, cut);
    std::memcpy(bytes.data() + at, &end, sizeof end);
  }
  return bytes;
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

  // Rewritten in place (same inode), as the tail keeps the file open between polls.
  const auto path = write_file("tail.dlflrt", written_up_to(file, cuts[0]));
  (void)dlfl::collect::running_test(path);
  dlfl::collect::RuntimeSnapshotTail tail(path);
  std::vector<RuntimeSlot> handed;
  const auto on_test = [&](const RuntimeSnapshot& header, RuntimeSlot&& slot) {
    // Every record comes with the header fields (the outside coverage only from finish()).
    if (header.probe_count != whole.value_or(header).probe_count) __builtin_trap();
    handed.push_back(std::move(slot));
  };
  (void)tail.poll(on_test);
  write_file("tail.dlflrt", written_up_to(file, cuts[1]));
  (void)dlfl::collect::running_test(path);
  (void)tail.poll(on_test, [&] { return !refuse_second; });
  write_file("tail.dlflrt", file);
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
