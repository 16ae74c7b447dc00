// Bug-set manifest: the imported bugs as JSON Lines (manifest.jsonl), one bug per line,
// the form in which `dlfl eval` takes a bug's ground truth.
#pragma once

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/bugset.h"

namespace dlfl::eval {

// One line is one JSON object (UTF-8; invalid bytes in text are replaced by U+FFFD):
//   {"id": "apache+incubator-mxnet#10011", "project": "apache+incubator-mxnet",
//    "number": "10011", "category": "Framework", "languages": ["python", "c++"],
//    "dl_frameworks": ["mxnet"], "title": "...", "body": "...",
//    "opened": "2018-03-06T18:59:07Z", "closed": "...", "fix_commit": "85215b6...",
//    "fix_date": "...", "change_types": ["ADD", "MODIFY"],
//    "files": [{"old_name": "CMakeLists.txt", "new_name": "CMakeLists.txt",
//               "change_type": "MODIFY", "deleted_lines": [93, 97],
//               "added_lines": [18, 94], "methods": [{"name": "f", "parameters": "x",
//               "start_line": 3, "end_line": 9, "deleted_lines": [4],
//               "added_lines": [4]}]}],
//    "labels": {"first":  {"dl_bug": true, "dl_bug_type": "API", "extrinsic": true},
//               "second": {...}, "agreed": {...}},
//    "bugscpp": {...}}
// "bugscpp" is present only for a BugsC++ defect (bugscpp_defect.h; its members are
// listed in lib/lab/eval/bugscpp_json.h) and is read back unchanged.
// A missing file name (added/deleted file) is null; an unset label or empty bug type is
// null; "labels" is absent when the bug has none; "change_types" is derived from
// "files" (written for readers' convenience, ignored when read).
inline constexpr std::string_view manifest_file_name = "manifest.jsonl";

// The manifest line of one bug, without the newline.
std::string manifest_line(const BugReport& bug);

// Writes one line per bug, in order; throws dlfl::Error naming the bug for a line over
// kMaxManifestLineBytes. Writing atomically (temp file + rename) is the caller's job.
void write_manifest(std::ostream& out, const std::vector<BugReport>& bugs);

// Parses one manifest line. Required members: "id", "project", "files"; the others
// default to empty. Line lists are sorted and deduplicated. Throws dlfl::Error
// "SOURCE:LINE: what" for invalid JSON, a wrongly typed member, an unknown change type
// or a line number that is not a positive 32-bit integer.
BugReport parse_manifest_line(std::string_view line, const std::string& source_name,
                              std::size_t line_number);

// The longest manifest line read or written (16 MiB): a BugsC++ bug carries its patches
// base64 in its line, so the bound leaves a bug about 12 MiB of patch text (the longest
// line of bugsets/*.jsonl is 27 KB), while the line streamed and parsed stays well inside
// a process of 64 MiB.
inline constexpr std::size_t kMaxManifestLineBytes = std::size_t{16} << 20;

// Reads a whole manifest (blank lines skipped), throwing as parse_manifest_line does;
// duplicate ids are an error too, and so is a line over kMaxManifestLineBytes
// ("SOURCE:LINE: manifest line longer than the 16 MiB limit"). The file is streamed
// line by line (io::TextFileLines): memory is the longest line, not the file. A line's JSON
// nests at most io::kMaxJsonDepth levels.
std::vector<BugReport> read_manifest(std::istream& in, const std::string& source_name);
std::vector<BugReport> read_manifest(const std::filesystem::path& path);

}  // namespace dlfl::eval
