// read_runtime_snapshot(): the memory-mapped snapshot file libdlfl_rt writes
// (DLFL_RT_FILE; layout in include/dlfl_rt/dlfl_rt_file.h), read back as plain values.
#pragma once

#include <cstdint>
#include <filesystem>
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
  std::vector<std::uint32_t> outside;  // probes reached outside any test
  std::vector<RuntimeSlot> tests;      // in the order they began
};

// Reads a snapshot file, also one whose writer is still running or was killed. Throws
// dlfl::Error "PATH: ..." when it is not a complete dlfl_rt file of a known version.
RuntimeSnapshot read_runtime_snapshot(const std::filesystem::path& path);

}  // namespace dlfl::collect
