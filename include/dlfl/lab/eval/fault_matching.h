// Fault matching: which ranked elements a ground-truth item (ground_truth.h) makes
// faulty, comparing paths and function names by components, at line, function or file
// level.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/aggregate.h"
#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/lab/eval/scored_element.h"

namespace dlfl::eval {

// line when the item has a line, else function when it names one, else file.
Granularity granularity(const GroundTruthItem& fault) noexcept;

// Path rule. Rankings spell paths relative to a build directory or absolute, ground truth
// relative to the repository root, so paths are compared by components:
// `\` counts as `/`; empty and `.` components are dropped; `x/..` cancels; leading `..`
// components are dropped (they name directories we cannot see). Two paths are the same
// file when the shorter component list equals the tail of the longer one:
//   `torch/csrc/a.cpp` ~ `/home/u/pytorch/torch/csrc/a.cpp` ~ `../torch/csrc/a.cpp`
//   `a.cpp` ~ `src/a.cpp` (a bare file name matches that name in any directory)
//   `csrc/a.cpp` !~ `jit/a.cpp`, `sa.cpp` !~ `a.cpp` (whole components only)
// Comparison is case-sensitive. An empty path matches nothing.
std::string normalize_path(std::string_view path);  // components joined by `/`
bool same_file(std::string_view a, std::string_view b);

// Function rule. A trailing parameter list is ignored (`f(int) const` ~ `f`, while
// `operator()` keeps its name), and names compare by `::`- or `.`-separated components
// with the same tail rule as paths: `Class::method` ~ `ns::Class::method` ~ `method`,
// `Module.f` ~ `f` (Python). So overloads of one name in one file match the same fault.
// An empty name matches nothing.
bool same_function(std::string_view a, std::string_view b);

// Whether `fault` makes `element` faulty: the files match (same_file) and
// - a file fault: always;
// - a whole-file element (is_whole_file()): always;
// - a function fault: the element's function matches (same_function);
// - a line fault: the element's lines [first_line, end_line()] contain the line (a line
//   fault's function, when given, plays no part at line level).
bool matches(const GroundTruthItem& fault, const ScoredElement& element);

// The faults as seen at `level`, without duplicates (same normalized path, and function
// or line as they take part in matching):
// - file: every fault becomes its file;
// - function: a line fault that names its function becomes that function's fault; one
//   that does not stays a line fault and matches the function spanning it (see lift());
// - line: as given.
std::vector<GroundTruthItem> lift_faults(std::span<const GroundTruthItem> faults,
                                         Granularity level);

// The faults, each line fault that names a function no element of `ranking` (line level)
// matches renamed after the function of the element that holds its line, where one
// does. A bug set's method extractor may miss a name component (Denchmark names a
// member of a class template's partial specialization `ns::execute`, llvm-cov
// `ns::reorder_impl<...>::execute`); the coverage tool's attribution of the faulty line
// is then the better name. Faults that match by name, and lines no element holds, are
// kept as given. Apply before lift_faults() at function level.
std::vector<GroundTruthItem> name_functions_as_ranked(std::span<const GroundTruthItem> faults,
                                                      std::span<const ScoredElement> ranking);

}  // namespace dlfl::eval
