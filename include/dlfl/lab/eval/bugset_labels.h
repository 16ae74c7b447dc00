// Bug labels of Jahan, Shah, Rahman (EMSE 2025): two annotators' DL-bug, bug-type and
// extrinsic labels per bug, read from their labels.csv and joined to imported bugs.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/bugset.h"

namespace dlfl::eval {

// The DL bug types of the study, in its order.
inline constexpr std::string_view dl_bug_types[] = {"Model", "Training", "Tensor & Input", "API",
                                                    "GPU"};

struct LabelEntry {
  std::string dataset;  // "denchmark" (DL bugs) or "bugl" (traditional Python bugs)
  BugLabels labels;     // `agreed` filled in by agreed_labels()
};

struct LabelTable {
  std::map<std::string, LabelEntry> by_id;  // "owner+repo#number" -> labels
  std::vector<std::string> warnings;        // "FILE:LINE: what", one line each
  std::size_t duplicate_rows = 0;           // rows repeating an earlier row's id
};

// Reads labels.csv (columns dataset, id, dl_bug_a1, dl_bug_type_a1, extrinsic_a1,
// intrinsic_a1 and the same with _a2; others ignored). Cells: "1"/"0" or empty (not
// given). A bug type "Tensor" is read as "Tensor & Input" (both annotators write it so
// once); another unknown type is kept and warned about. extrinsic comes from
// extrinsic_aN, or from !intrinsic_aN when only that is given; the two contradicting
// each other leaves it unset, with a warning. A repeated id with the same labels is
// counted in duplicate_rows; with different ones the first row wins, with a warning.
// Throws dlfl::Error "FILE[:LINE]: what" for an unreadable file, a missing column or a
// cell that is not 1, 0 or empty.
LabelTable read_jahan_labels(const std::filesystem::path& path);

struct LabelJoinResult {
  std::size_t joined = 0;                   // bugs that received labels
  std::vector<std::string> unmatched_ids;   // ids of `dataset` rows with no such bug
};

// Sets `labels` of every bug whose id has a row of `dataset` in the table (replacing any
// earlier labels).
LabelJoinResult join_labels(std::vector<BugReport>& bugs, const LabelTable& table,
                            std::string_view dataset = "denchmark");

}  // namespace dlfl::eval
