// The ground truth of a real bug (`dlfl bugset reproduce`, both sides: a Denchmark entry
// and a BugsC++ defect alike) from its fix and the buggy version's spectrum.
//
// One rule, the one `dlfl versions` applies to a faulty version (version_truth.h; Pearson
// et al., "Evaluating and Improving Fault Localization", ICSE 2017): the faulty elements
// are the buggy version's lines the fix deletes or changes that are executable (elements
// of its spectrum); a change with no executable line of its own, a pure insertion above
// all (a fault of omission), is located by the nearest executable line above and the
// nearest below it in the same file. A file the fix deletes is faulty as a whole (all its
// executable lines); a file the fix adds has no place in the buggy version.
//
// The whole-file convention (every deleted line is faulty, executable or not, and a file
// the fix only adds to counts as a whole file: eval::ground_truth's defaults) is kept as
// a named sensitivity variant, never the study's rule.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "dlfl/lab/bench/version_truth.h"
#include "dlfl/lab/eval/bugset.h"
#include "dlfl/spectrum.h"

namespace dlfl::bench {

enum class TruthRule {
  adjacent_lines,  // the rule above: the study's
  whole_file,      // the sensitivity variant
};

// "adjacent-lines", "whole-file".
std::string_view to_string(TruthRule rule) noexcept;
// The inverse of to_string; nullopt for anything else.
std::optional<TruthRule> parse_truth_rule(std::string_view text) noexcept;

// The hunks of one file's fix as `diff -U0 FIXED BUGGY` writes them, so that their new
// side is the buggy version (the faulty version of version_truth.h), rebuilt from the
// file's deleted (buggy numbering) and added (fixed numbering) lines; deletions before
// additions where both sit at one place. A deleted file is one hunk over all its lines;
// an added file has none. Throws dlfl::Error naming the file when a line number is 0.
std::vector<DiffHunk> buggy_version_hunks(const eval::FileChange& file);

// The faulty elements of `bug` in `spectrum` (its buggy version's) under `rule`, over the
// fix's C/C++/CUDA files outside the tests (eval::reproduction_truth_options): sorted by
// file and line, unique. adjacent_lines names each line's function as the spectrum does;
// whole_file is eval::ground_truth's list, whatever the spectrum holds.
std::vector<eval::GroundTruthItem> fix_truth(const eval::BugReport& bug, const Spectrum& spectrum, TruthRule rule);

}  // namespace dlfl::bench
