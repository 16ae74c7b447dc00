// Bug set model: a fixed bug's report, the files its fix changed, its optional labels,
// and the ground truth derived from the fix.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/bugscpp_defect.h"
#include "dlfl/lab/eval/ground_truth.h"

namespace dlfl::eval {

// How a fix commit changed one file (PyDriller's ModificationType, which Denchmark
// records verbatim).
enum class ChangeType : std::uint8_t { add, copy, delete_, modify, rename, unknown };

// "ADD", "COPY", "DELETE", "MODIFY", "RENAME", "UNKNOWN".
std::string_view to_string(ChangeType type) noexcept;
// The inverse of to_string (exact, upper case); nullopt for anything else.
std::optional<ChangeType> parse_change_type(std::string_view text) noexcept;

// A function the fix touched, as Denchmark's generator (lizard through PyDriller)
// reports it. Line numbers are 1-based; sorted ascending, no duplicates.
struct ChangedMethod {
  std::string name;        // qualified as lizard prints it: "cv::Foo::bar", "Cls.method"
  std::string parameters;  // comma-separated parameter names, may be empty
  std::uint32_t start_line = 0;
  std::uint32_t end_line = 0;               // inclusive
  std::vector<std::uint32_t> deleted_lines;  // old-file numbering
  std::vector<std::uint32_t> added_lines;    // new-file numbering
};

// One file of the fix. Paths are repository-relative with '/' separators. old_name is
// empty for an added file, new_name empty for a deleted one; otherwise both are set
// (equal unless renamed). Line lists are 1-based, sorted ascending, no duplicates, and
// hold every changed line of the file (lines inside and outside functions alike).
struct FileChange {
  std::string old_name;
  std::string new_name;
  ChangeType change_type = ChangeType::modify;
  std::vector<std::uint32_t> deleted_lines;  // old-file numbering: lines the fix removed
  std::vector<std::uint32_t> added_lines;    // new-file numbering: lines the fix wrote
  std::vector<ChangedMethod> methods;        // functions with changed lines, may be empty

  // new_name, or old_name for a deleted file: the path to classify the file by.
  const std::string& path() const noexcept { return new_name.empty() ? old_name : new_name; }
};

// One annotator's labels (Jahan et al., EMSE 2025). An unset optional = not given.
struct AnnotatorLabels {
  std::optional<bool> dl_bug;  // a bug of the deep-learning logic (vs. generic software)
  // "Model", "Training", "Tensor & Input", "API" or "GPU"; empty when none was given
  // (always so for a non-DL bug).
  std::string dl_bug_type;
  std::optional<bool> extrinsic;  // cause outside the source code (GPU, data, env...)

  friend bool operator==(const AnnotatorLabels&, const AnnotatorLabels&) = default;
};

// Both annotators' labels side by side, plus the value they agree on: in `agreed` a
// field is set only when both annotators set it to the same value, so an unset field
// there means "unknown or disputed" and the two originals tell which.
struct BugLabels {
  AnnotatorLabels first;
  AnnotatorLabels second;
  AnnotatorLabels agreed;

  friend bool operator==(const BugLabels&, const BugLabels&) = default;
};

// `agreed` computed from the two annotators' labels by the rule above.
AnnotatorLabels agreed_labels(const AnnotatorLabels& first, const AnnotatorLabels& second);

// One fixed bug: its report and its fix commit.
struct BugReport {
  // Globally unique id "<project>#<number>", e.g. "apache+incubator-mxnet#10011": the
  // project as Denchmark spells it (GitHub "owner+repo", lower case) and the issue
  // number in that project's tracker. This is also the id Jahan et al.'s labels use.
  std::string id;
  std::string project;  // "owner+repo"
  std::string number;   // the issue number as written, e.g. "10011"
  // The project's category in Denchmark's final classification: "Framework", "Engine",
  // "Library", "Tool", "Application", "Platform", "Compiler", or "Else"; empty when
  // unknown.
  std::string category;
  std::vector<std::string> languages;      // the project's languages, e.g. "python", "c++"
  std::vector<std::string> dl_frameworks;  // DL frameworks the project uses, e.g. "torch"
  std::string title;                       // the report's summary line
  std::string body;                        // the report's description, outer blanks trimmed
  std::string opened;                      // ISO 8601 as recorded, e.g. "2018-03-06T18:59:07Z"
  std::string closed;
  std::string fix_commit;  // full SHA-1 of the fixing commit
  std::string fix_date;    // commit date as recorded, e.g. "2018-03-09 14:33:10-08:00"
  std::vector<FileChange> files;
  std::optional<BugLabels> labels;  // set by join_labels when the bug was annotated
  // A BugsC++ defect (`bugset import bugscpp`): how to build it and run its cases.
  std::optional<BugsCppDefect> bugscpp;
};

// The distinct change types of a bug's files, in enum order.
std::vector<ChangeType> change_types(const BugReport& bug);

// Lines the fix changed: added + deleted over all files (each file's lists are free of
// duplicates). Added or deleted files carry no line lists in Denchmark and count 0.
std::size_t changed_line_count(const BugReport& bug) noexcept;

// The bug in `bugs` with this id, or nullptr.
const BugReport* find_bug(const std::vector<BugReport>& bugs, std::string_view id) noexcept;

// Which fix changes count as faults, for ground_truth().
struct GroundTruthOptions {
  // A deleted line is faulty: one `old_name:line` item each, naming the innermost changed
  // method whose deleted lines hold it. A file the fix changed by adding lines only (a
  // fault of omission) has no such line, so it counts as a whole file (`old_name`).
  bool omission_files = true;
  bool added_files = true;     // a file the fix added counts as a whole file (`new_name`)
  bool deleted_files = true;   // a file the fix deleted counts as a whole file (`old_name`)
  bool renamed_files = false;  // a rename/copy with no changed lines counts (`old_name`)
  // When set, only files whose path() it accepts contribute (e.g. C/C++/CUDA only).
  std::function<bool(std::string_view path)> keep_file;
};

// The faulty elements of `bug` by the rules in `options`, file by file in the bug's
// order, lines ascending within a file; no duplicates.
std::vector<GroundTruthItem> ground_truth(const BugReport& bug,
                                          const GroundTruthOptions& options = {});

// Whether a path names C, C++ or CUDA source or header (.c .cc .cpp .cxx .c++ .h .hh .hpp
// .hxx .h++ .inl .ipp .tpp .cu .cuh; case-insensitive). Objective-C (.m .mm) is not.
bool is_native_source(std::string_view path) noexcept;

// The lower-case extension with its dot (".cc"), or "" when the file name has none
// (a leading dot does not start one: ".gitignore" has none, ".travis.yml" has ".yml").
std::string file_extension(std::string_view path);

}  // namespace dlfl::eval
