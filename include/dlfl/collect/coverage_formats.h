// Parsers for the coverage tools' outputs: gcov JSON, lcov tracefiles, llvm-cov JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/collect/coverage_backend.h"

namespace dlfl::collect {

// `gcov --json-format --stdout` output of gcc 9 to 13 (format_version 1; later fields
// are skipped): one JSON document per line, one per .gcda. Each "files" entry becomes a
// FileCoverage with its "lines" (line_number, count) and "functions" (demangled_name,
// start_line, end_line); `base` is the document's current_working_directory (the
// compilation directory relative source paths refer to). Appends to `report`. simdjson
// On-Demand; `text` needs no padding (a padded copy is made when the buffer is too
// short). When `data_files` is given, it is kept parallel to report.files: each
// appended FileCoverage gets its document's "data_file" (the .gcda path as passed to gcov). Throws dlfl::Error
// "ORIGIN: ..." on malformed input.
void parse_gcov_json(std::string_view text, const std::string& origin, CoverageReport& report,
                     std::vector<std::string>* data_files = nullptr);

// An lcov tracefile (`llvm-cov export -format=lcov`, `geninfo`): SF: starts a file,
// DA:LINE,COUNT[,CHECKSUM] adds a line, FN:LINE,NAME a function start (its end is
// unknown: last_line = first_line), end_of_record ends the file. Other records are
// skipped. Throws dlfl::Error "ORIGIN:LINE: ..." on a malformed SF/DA record.
void parse_lcov(std::string_view text, const std::string& origin, CoverageReport& report);

// The function extents from `llvm-cov export -format=text` (JSON, "llvm.coverage.json.export"):
// per function, its code regions in its own file (regions with fileID 0, whose file is
// filenames[0]) give first and last line; names are demangled (a local function's
// `file.cpp:` prefix dropped). One FileCoverage per function file, without lines.
// Throws dlfl::Error "ORIGIN: ..." on malformed input.
void parse_llvm_export_functions(std::string_view json, const std::string& origin, CoverageReport& report);

// Itanium C++ ABI demangling (abi::__cxa_demangle); the input when it is not a mangled name.
std::string demangle(std::string_view symbol);

}  // namespace dlfl::collect
