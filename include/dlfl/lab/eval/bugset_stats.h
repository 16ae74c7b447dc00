// Bug-set statistics: what a set of fixed bugs looks like (categories, languages, file
// types, fix sizes, native-code share, DL bug types), for `dlfl bugset stats`.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlfl/lab/eval/bugset.h"

namespace dlfl::eval {

// Keys standing for "no value" in the count maps below.
inline constexpr std::string_view unknown_key = "(unknown)";           // no category
inline constexpr std::string_view no_extension_key = "(none)";         // file without extension
inline constexpr std::string_view not_dl_bug_key = "(not a DL bug)";   // both annotators: no
inline constexpr std::string_view disputed_key = "(annotators disagree)";

// Distribution of changed lines per bug (added + deleted, changed_line_count()). An added
// or deleted file contributes no lines (Denchmark records none for it), so the size of a
// fix that adds or deletes files is a lower bound, and a fix of whole-file changes only
// has size 0: its true size is unknown.
struct FixSizeSummary {
  std::size_t bugs = 0;
  std::size_t min = 0;
  std::size_t max = 0;
  double mean = 0;
  // Quartiles by linear interpolation between order statistics (R's type 7).
  double q1 = 0;
  double median = 0;
  double q3 = 0;
  std::size_t without_lines = 0;  // fixes of size 0 (whole-file changes only)
  std::size_t at_most_10 = 0;     // fixes of 1..10 changed lines
  // at_most_10 / (bugs - without_lines), in [0, 1] (0 when there are none): the share
  // to hold against Yu et al.'s 48%; size-0 fixes are left out as of unknown size.
  double share_at_most_10 = 0;
  // Bugs per size bucket, in order: "0", "1-10", "11-50", "51-100", "101-500", ">500".
  std::vector<std::pair<std::string, std::size_t>> histogram;
};

struct BugsetStats {
  std::size_t bugs = 0;
  std::size_t projects = 0;
  std::size_t file_changes = 0;
  std::map<std::string, std::size_t> bugs_per_category;    // unknown_key for ""
  std::map<std::string, std::size_t> bugs_per_language;    // once per language of its project
  std::map<std::string, std::size_t> bugs_per_dl_framework;
  std::map<std::string, std::size_t> bugs_per_change_type;        // bugs with >= 1 such file
  std::map<std::string, std::size_t> file_changes_per_change_type;
  std::map<std::string, std::size_t> file_changes_per_extension;  // lower case, ".py"
  std::map<std::string, std::size_t> bugs_per_extension;          // once per extension touched
  FixSizeSummary fix_size;
  std::size_t bugs_touching_native = 0;  // a file with is_native_source(path())
  std::size_t bugs_touching_cuda = 0;    // a .cu or .cuh file
  // Bugs whose ground truth (default options) has a C/C++/CUDA item: the ones an
  // SBFL run over native code can localize at all.
  std::size_t bugs_with_native_ground_truth = 0;
  // Reproduction (`dlfl bugset reproduce`, bugset_candidates.h): bugs whose fix changed
  // native code outside the tests, bugs whose fix touched a test file, and both: the
  // candidates (whether the project builds with CMake needs its clone).
  std::size_t bugs_with_native_fix = 0;
  std::size_t bugs_touching_tests = 0;
  std::size_t reproduction_candidates = 0;

  // Labels (bugs with BugReport::labels only); by the annotators' agreed value.
  std::size_t labelled_bugs = 0;
  // A DL bug type, not_dl_bug_key, or disputed_key (no agreed type and no agreed "not DL").
  std::map<std::string, std::size_t> bugs_per_dl_bug_type;
  std::size_t extrinsic_bugs = 0;
  std::size_t intrinsic_bugs = 0;
  std::size_t extrinsic_disputed = 0;  // annotators disagree or did not say
};

// Statistics over `bugs`. Pure; no I/O.
BugsetStats bugset_stats(const std::vector<BugReport>& bugs);

}  // namespace dlfl::eval
