// The checks `dlfl merge` makes of its inputs: before it writes anything, one checkout,
// one probe map, elements that agree on what they are, inputs related to each other; then
// the native inputs' coverage, checked as the merge streams through it.
// Internal to dlfl_formats (spectrum_merge.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "dlfl/spectrum.h"
#include "merge_input.h"

namespace dlfl::io::merge {

// The output's origin: the inputs' source root and probe map id. Throws dlfl::Error naming
// the input whose source root or probe map id differs from an earlier input's.
SpectrumOrigin merged_origin(const std::vector<Input>& in);

// Throws dlfl::Error naming input `input` unless its element `element` is what element
// `first_element` of input `first_input` is (same function, last line and name): two
// spectra of different code that happen to share a (file, line).
void check_same_element(const std::vector<Input>& in, std::size_t first_input, std::size_t first_element,
                        std::size_t input, std::size_t element);

// Refuses an input without a source root beside one with, and one that meets no earlier
// input in an element or a test (meets_element[i], meets_test[i]): spectra of different
// programs, merged by mistake, would otherwise give one silently. Called after the
// element union, whose mismatches say more. Throws dlfl::Error naming the input.
void check_related(const std::vector<Input>& in, const std::vector<char>& meets_element,
                   const std::vector<char>& meets_test);

// Native inputs' coverage is checked as it is read (merge_input.h), in element order: a
// few thousand rows ahead of their use, so that all inputs' ids are still in cache when
// merged (pages are dropped in larger steps, one madvise each). When the element tables
// differ, rows are read out of order: all of it is checked at once, when constructed.
inline constexpr std::size_t kCheckRange = 1 << 12, kReleaseRange = 1 << 16;

// The streamed checks (merge_input.h StreamedChecks) of every input, run as the merge
// passes through the elements in order, and the inputs' pages dropped behind it.
class StreamedInputs {
 public:
  StreamedInputs(std::vector<Input>& in, bool shared_table);
  // Elements [0, end) of every input.
  void offsets_through(std::size_t end);
  void rows_through(std::size_t end);
  // Before element e of a pass in element order: the next range when e starts one.
  void offsets_at(std::size_t e);
  void rows_at(std::size_t e);
  // The inputs' pages before element e (a multiple of kReleaseRange) are merged and
  // checked: dropped. Only when the inputs share one element table.
  void release_through(std::size_t e);
  // Every remaining check; the merge's output is committed only after.
  void finish();

 private:
  std::vector<Input>& in_;
  bool shared_table_;
  std::vector<std::size_t> released_;
};

}  // namespace dlfl::io::merge
