// The summary `dlfl bench` prints at the end: formulas × groups (Top-N, EXAM, MAP, MRR),
// DL against traditional faults (Mann-Whitney U, Cohen's d, Cliff's delta), formulas ×
// bug types, and the discarded faults by reason. Markdown tables, so docs/results.md can
// show them as printed.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "dlfl/lab/bench/fault_record.h"
#include "dlfl/lab/eval/compare.h"

namespace dlfl::bench {

// The kept faults' results as compare() input: bug "subject#fault", technique = formula,
// group = the record's group (or its bug type when `by_bug_type`), first_rank (0 when not
// found), rr, ap, and extra "exam" and "top<N>" (average tie rule).
std::vector<eval::BugResult> bug_results(std::span<const FaultRecord> records, const std::vector<std::uint64_t>& top_n,
                                         bool by_bug_type);

struct SummaryOptions {
  std::vector<std::uint64_t> top_n{1, 3, 5, 10};
  double wall_seconds = 0;  // shown in the header line when > 0
  // Real bugs (`dlfl bugset reproduce`) rather than seeded faults: the header counts
  // bugs, kept bugs are counted per project, and the group and bug type are the bug
  // set's labels (extrinsic or not; the DL bug type).
  bool real_bugs = false;
  // The header line's run and what it counts; empty: "dlfl bench" and "faults seeded"
  // ("dlfl bugset reproduce" and "bugs" for real bugs).
  std::string run_name = {};
  std::string unit = {};
};

// Writes the summary. With no kept fault only the counts are written.
void write_summary(std::ostream& out, std::span<const FaultRecord> records, const SummaryOptions& options);

}  // namespace dlfl::bench
