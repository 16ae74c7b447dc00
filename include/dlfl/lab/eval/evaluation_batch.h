// Evaluation batches: a CSV listing many (bug, ranking, ground truth) triples for one
// `dlfl eval --batch` run, whose per-bug CSV `dlfl compare` then reads.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace dlfl::eval {

struct BatchEntry {
  std::string bug;                  // bug id; also the manifest id when `truth` is empty
  std::filesystem::path ranking;    // a ranking file (ranking_reader.h)
  std::filesystem::path truth;      // a ground-truth list; empty = the manifest's entry
  std::string technique;            // empty = the ranking's formula
  std::size_t line = 0;             // line of the batch file, for messages
};

// Reads a batch CSV with a header naming the columns `bug` and `ranking` (required) and
// `truth` and `technique` (optional), in any order; other columns are ignored. Relative
// paths are taken relative to the batch file's directory. Throws dlfl::Error
// "FILE:LINE: what" for an unreadable file, a missing column, a row with a different
// number of fields than the header, or an empty bug or ranking cell.
std::vector<BatchEntry> read_evaluation_batch(const std::filesystem::path& path);

}  // namespace dlfl::eval
