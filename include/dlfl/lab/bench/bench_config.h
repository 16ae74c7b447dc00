// BenchConfig: what one `dlfl bench` run measures (subjects, mutants per subject,
// formulas, parallelism), read from a benchmark file such as benchmarks/default-bench.json.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/bench/fault_combinations.h"

namespace dlfl::bench {

struct SubjectRun {
  std::filesystem::path subject_file;  // absolute
  // Mutants seeded (before discarding): a stratified sample over the operators
  // (mutate/sampling.h), so every operator, hence every bug type the subject allows, is
  // represented. 0 = every mutant.
  std::size_t max = 0;
  std::uint64_t seed = 1;
};

// The benchmark file:
//   {
//     "subjects": [{"subject": "../examples/tensorlite/dlfl-subject.json", "max": 120, "seed": 1}, ...],
//     "formulas": ["ochiai", "dstar2", "tarantula", "barinel"],
//     "techniques": ["block", "prfl", "neighbors", "flitsr"],
//     "top_n": [1, 3, 5, 10],
//     "jobs": 2,
//     "multi_fault": {"k": [2, 4], "combinations": 20}
//   }
// Subject paths are relative to the benchmark file. Only "subjects" is required.
struct BenchConfig {
  std::vector<SubjectRun> subjects;
  std::vector<std::string> formulas{"ochiai", "dstar2", "tarantula", "barinel"};
  // Techniques evaluated beside each plain formula, as rows named `FORMULA+TECHNIQUE`
  // (fault_pipeline.h); empty = the formulas alone.
  std::vector<std::string> techniques;
  std::vector<std::uint64_t> top_n{1, 3, 5, 10};
  unsigned jobs = 1;  // faults built and run at once, each in its own work tree
  // Multi-fault mode (fault_combinations.h): combinations of k = k[0]..k[1] mutants
  // instead of single mutants; needs the single-fault run's results (bench_runner.h).
  MultiFaultConfig multi_fault;
  // `dlfl bench --mbfl N`: each kept fault's kill matrix with a budget of N mutants, at
  // most mbfl_per_line per line (seeded_kill_matrix.h); 0 = none. Set by the command
  // line, not the benchmark file.
  std::size_t mbfl_budget = 0;
  std::size_t mbfl_per_line = 5;
};

// Throws dlfl::Error "FILE: what" for malformed JSON, unknown or mistyped fields, no
// subject, an empty formula list, an unknown technique, a top N of 0, jobs of 0 or a
// "multi_fault" k outside 2..8 or not ascending.
// Most mutants seeded together: beyond a handful, failures mask each other and the
// combination stops resembling real multi-fault programs (FLITSR's benchmarks use 2-5).
inline constexpr unsigned kMaxMultiFaultK = 8;

// The range min_k..max_k checked (2 <= min_k <= max_k <= kMaxMultiFaultK), combinations
// left at the default; throws dlfl::Error "SOURCE: what" otherwise.
MultiFaultConfig multi_fault_config(std::uint64_t min_k, std::uint64_t max_k, const std::string& source);

BenchConfig parse_bench_config(std::string_view text, const std::filesystem::path& file);
// Refuses a file over kMaxBenchConfigBytes before reading it, and JSON nested deeper than
// io::kMaxJsonDepth before parsing it.
BenchConfig read_bench_config(const std::filesystem::path& file);

// The largest benchmark file, and run configuration an output directory keeps, read
// (1 MiB): a benchmark names a few subjects in a few hundred bytes; 1 MiB is far past any
// hand-written one and cheap to hold.
inline constexpr std::size_t kMaxBenchConfigBytes = std::size_t{1} << 20;

}  // namespace dlfl::bench
