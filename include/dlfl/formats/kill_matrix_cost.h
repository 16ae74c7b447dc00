// What one `dlfl kill-matrix` run cost, beside its kill matrix (OUT/kill-matrix-cost.json),
// so that a study can put mutation-based localization's price next to its gain. JSON:
//
//   {"format": "dlfl-kill-matrix-cost", "version": 1,
//    "generated": 120, "compiled": 110, "killed": 64,
//    "runs": 1480, "reused": 0,
//    "generate_seconds": 3.2, "build_seconds": 41.0, "run_seconds": 130.5}
//
// generated and compiled count mutants (mutant_manifest.h: compiled = those in the
// schemata); runs counts test runs made by this run (baseline runs included), reused
// those read back from a journal of an earlier one; seconds are wall-clock time of
// choosing and writing the mutants (0 when an earlier run's were reused), the schemata
// build, and the test runs. With `kill-matrix --plain-build`, "plain_build_seconds" is the
// wall time of the same build of a copy without mutants, run just before it, and both
// builds ran without ccache (CCACHE_DISABLE=1); without it the field is absent.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>

namespace dlfl::io {

inline constexpr const char* kKillMatrixCostFileName = "kill-matrix-cost.json";

struct KillMatrixCost {
  std::size_t generated = 0, compiled = 0, killed = 0;
  std::size_t runs = 0, reused = 0;
  double generate_seconds = 0, build_seconds = 0, run_seconds = 0;
  std::optional<double> plain_build_seconds;
};

// Writes atomically. Throws dlfl::Error(path, 0, ...) when it cannot be written.
void write_kill_matrix_cost(const KillMatrixCost& cost, const std::filesystem::path& path);

// Throws dlfl::Error(path, 0, ...) for an unreadable file, invalid JSON, another format
// or version, or a missing, mistyped or negative field (plain_build_seconds may be missing).
KillMatrixCost read_kill_matrix_cost(const std::filesystem::path& path);

}  // namespace dlfl::io
