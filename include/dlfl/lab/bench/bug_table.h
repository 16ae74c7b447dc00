// The per-bug CSV of a bench run: one row per kept fault × formula, readable as is by
// `dlfl compare` (compare_table.h) and by pandas.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "dlfl/lab/bench/fault_record.h"

namespace dlfl::bench {

// Header: project,bug,technique,group,kind,bug_type,operator,file,line,function,n_faulty,
// first_rank,first_rank_best,first_rank_worst,rr,ap,exam,top<N>...,elements,tests,failing
//   project   subject name;  bug  "subject#fault" (compare keeps an id holding '#');
//   technique the formula;   group "dl" or "traditional" (by bug type); kind: the subject's;
//   first_rank 0 when the faulty line is not ranked (compare: not retrieved);
//   rr, ap, exam, topN under the average tie rule (FormulaResult).
// Text cells are quoted when they hold a comma or quote. Discarded faults have no row.
// `top_n` names the top columns (the run's top N list, as each FormulaResult::top).
void write_bug_table(std::ostream& out, std::span<const FaultRecord> records, const std::vector<std::uint64_t>& top_n);

// Discarded faults, one row each: project,bug,bug_type,operator,file,line,reason,detail.
void write_discarded_table(std::ostream& out, std::span<const FaultRecord> records);

}  // namespace dlfl::bench
