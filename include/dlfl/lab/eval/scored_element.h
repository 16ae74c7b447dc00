// Lifting a ranking of ScoredElements (scored_element.h) to blocks, functions or files.
#pragma once

#include <span>
#include <vector>

#include "dlfl/aggregate.h"
#include "dlfl/scored_element.h"

namespace dlfl::eval {

// ScoredElement and scored_elements() live in the model (they need no evaluation); the
// evaluation names them as its own.
using ::dlfl::ScoredElement;
using ::dlfl::scored_elements;

// The ranking as seen at `level`, so that one line-level ranking yields all three levels:
// - function: one element per (file, function), keyed `file#function`, spanning its
//   members' lines (so a line fault matches the function whose ranked lines surround
//   it); elements without a function are kept as they are;
// - file: one whole-file element per file (no function, no lines);
// - block: adjacent lines of one function with the same score become one element spanning
//   them (a ranking file has no coverage columns; identical columns score the same, so the
//   blocks of `dlfl rank --granularity block` are found again, and elements that already
//   span several lines are kept);
// - line: a copy.
// Files are grouped by normalize_path() (fault_matching.h). A group's score is the maximum of its
// members' scores, ignoring unscored members; a group with only unscored members stays
// unscored. Elements without a file (extrinsic) are kept as they are. Groups come out in
// order of their first member.
std::vector<ScoredElement> lift(std::span<const ScoredElement> ranking, Granularity level);

}  // namespace dlfl::eval
