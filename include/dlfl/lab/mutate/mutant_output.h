// Writing mutants: one unified-diff patch per mutant plus the ground truth as JSON Lines.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/mutate/mutant.h"

namespace dlfl::mutate {

inline constexpr std::string_view kManifestFileName = "mutants.jsonl";

// The mutant as a unified diff of `original_text` (the whole file) with 3 lines of
// context, paths "a/<file>" and "b/<file>": `patch -p1` or `git apply` in the root
// applies it.
std::string unified_diff(const std::string& original_text, const Mutant& mutant);

// The mutant's ground-truth record, one JSON object without newline: id, file, line,
// end_line, lines (every line of the edit), column, operator, bug_type, group ("dl" or
// "traditional"), function, original, replacement, patch ("<id>.patch").
std::string manifest_line(const Mutant& mutant);
// Parses a manifest_line; throws dlfl::Error "SOURCE:LINE: ..." on malformed input.
Mutant parse_manifest_line(std::string_view line, const std::string& source_name, std::size_t line_number);
// Reads a whole manifest (blank lines skipped).
std::vector<Mutant> read_manifest(const std::filesystem::path& path);

// Writes <out_dir>/<id>.patch for every mutant (reading originals under `root`) and
// <out_dir>/mutants.jsonl, atomically each; other files already in out_dir (patches of an
// earlier run) are left alone, mutants.jsonl lists the current ones. Throws dlfl::Error when a source cannot be
// read or no longer holds the mutated text, or an output cannot be written.
void write_mutants(const std::filesystem::path& out_dir, const std::filesystem::path& root,
                   const std::vector<Mutant>& mutants);

}  // namespace dlfl::mutate
