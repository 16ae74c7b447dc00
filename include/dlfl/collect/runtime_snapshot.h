// Reading the snapshot file libdlfl_rt writes (DLFL_RT_FILE; layout and version in
// include/dlfl_rt/dlfl_rt_file.h) back as plain values, whole or one test at a time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlfl::collect {

struct RuntimeSlot {
  std::string name;
  std::uint32_t state = 0;    // DLFL_RT_SLOT_RUNNING or DLFL_RT_SLOT_ENDED
  std::int32_t outcome = 0;   // DLFL_RT_PASSED, ... (valid when ended)
  std::uint64_t begin_ns = 0, end_ns = 0;  // CLOCK_MONOTONIC of the writer
  std::vector<std::uint32_t> probes;  // ids of the probes reached, ascending
};

struct RuntimeSnapshot {
  std::uint64_t probe_count = 0;
  std::uint64_t map_id = 0;  // the probe map's id the code was instrumented with; 0 = unknown
  std::int32_t pid = 0;      // the writer process
  // The process ran with DLFL_RT_TEST: its one test is the whole process, still "running"
  // in the file; its state says nothing about the outcome (the exit status does).
  bool whole_process = false;
  // The MPI rank of the writer (an mpirun-started process), if any.
  std::optional<std::uint32_t> mpi_rank;
  std::vector<std::uint32_t> outside;  // probes reached outside any test
  std::vector<RuntimeSlot> tests;      // in the order they began
};

// Reads a snapshot file, also one whose writer is still running or was killed. Throws
// dlfl::Error "PATH: ..." (one line) when it is not a complete dlfl_rt file of this
// version: every offset and size is checked against the file's real size.
RuntimeSnapshot read_runtime_snapshot(const std::filesystem::path& path);

// The same, streaming: each test goes to `on_test` as it is read, in the order the tests
// began, with the snapshot's header fields and outside coverage (its `tests` stay empty),
// so memory is bounded by the largest test, not the file. Returns that header part.
// Throws like read_runtime_snapshot, possibly after some tests went to `on_test`.
using OnRuntimeTest = std::function<void(const RuntimeSnapshot&, RuntimeSlot&&)>;
RuntimeSnapshot read_runtime_snapshot(const std::filesystem::path& path, const OnRuntimeTest& on_test);

// The same, while the writer still runs: the records of ended tests are complete up to the
// header's records_end (dlfl_rt_file.h), so they can be read as they appear and the work
// of reading them overlaps the run.
class RuntimeSnapshotTail {
 public:
  explicit RuntimeSnapshotTail(std::filesystem::path path);
  ~RuntimeSnapshotTail();
  RuntimeSnapshotTail(const RuntimeSnapshotTail&) = delete;
  RuntimeSnapshotTail& operator=(const RuntimeSnapshotTail&) = delete;

  // Hands the records completed since the last call to `on_test` (in order; the snapshot
  // passed along has the header fields but no outside coverage yet) and returns how many.
  // A file not there yet, a header not yet written, or a record that does not read
  // correctly give nothing more: finish() reads them again and reports what is wrong.
  // `may_hand`, when given, is asked after the header bounding the new records was read and
  // before the first is handed: false hands none. Errors thrown by `on_test` propagate.
  std::size_t poll(const OnRuntimeTest& on_test, const std::function<bool()>& may_hand = {});
  // After the writer ended: the records not handed yet, then the running test, exactly as
  // read_runtime_snapshot (which is this on a fresh tail). Call once.
  RuntimeSnapshot finish(const OnRuntimeTest& on_test);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The test running in a snapshot file right now: its ordinal (1, 2, ... in the order
// tests began) and CLOCK_MONOTONIC start. nullopt when none runs, or the file does not
// exist or is not (yet) a snapshot. Two small reads; for polling a live run.
struct RunningTest {
  std::uint32_t ordinal = 0;
  std::uint64_t begin_ns = 0;
};
std::optional<RunningTest> running_test(const std::filesystem::path& path);

}  // namespace dlfl::collect
