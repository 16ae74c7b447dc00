// The ground truth of a faulty version, derived from its diff against the original
// program (`dlfl versions`).
//
// Convention (the one of the SIR/Siemens-suite studies, stated explicitly by Pearson et
// al., "Evaluating and Improving Fault Localization", ICSE 2017, for faults of omission):
// the faulty elements are the version's changed lines that are executable (elements of
// its spectrum). A change with no executable line of its own (a deleted statement, an
// added declaration, a changed line continuing a statement) is located by the nearest
// executable line above and the nearest below it in the same file; a technique finds the
// fault when it ranks either of them.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/spectrum.h"

namespace dlfl::bench {

// One hunk of a unified diff with line numbers of the old (original) and new (version)
// file. A count of 0 is a pure deletion (new side) or insertion (old side); its start is
// then the line after which the change sits, as diff writes it.
struct DiffHunk {
  std::uint32_t old_start = 0, old_count = 0;
  std::uint32_t new_start = 0, new_count = 0;
  friend bool operator==(const DiffHunk&, const DiffHunk&) = default;
};

// The hunks of one file's unified diff (`diff -U0 ORIGINAL VERSION`): every "@@ -a[,b]
// +c[,d] @@" header; other lines are ignored. Throws dlfl::Error "SOURCE:LINE: ..." for a
// malformed header.
std::vector<DiffHunk> parse_diff_hunks(std::string_view diff, const std::string& source);

// The version's faulty lines for the hunks of one file, sorted and unique, by the
// convention above. `executable`: the lines of that file in the version's spectrum,
// sorted ascending. Empty when the file has no executable line near any hunk.
std::vector<std::uint32_t> faulty_version_lines(std::span<const DiffHunk> hunks,
                                                std::span<const std::uint32_t> executable);

// The faulty elements of a version by the convention above: for each file (as the diff
// names it; eval::same_file matches it to the spectrum's) and its hunks, the lines
// faulty_version_lines gives over that file's executable lines in `spectrum`, each
// named with the function the spectrum puts it in. Files in `changes`' order, lines
// ascending. Both `dlfl versions` and real bugs (fix_truth.h) derive their truth here.
std::vector<eval::GroundTruthItem> spectrum_truth(const Spectrum& spectrum,
                                                  const std::map<std::string, std::vector<DiffHunk>>& changes);

}  // namespace dlfl::bench
