// Minimal XLSX sheet reader, enough for Denchmark's Dataset.xlsx (project categories):
// ZIP (stored or deflate, no ZIP64, no encryption) + the sheet's cells as text.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::eval {

// A sheet as text: rows in order (row r of the sheet at index r-1, so a skipped row is
// an empty vector), each cell at its 0-based column (A = 0); absent cells are "". A
// shared or inline string gives its text, a number its text as stored (e.g. "3.25"), a
// boolean "0"/"1"; formulas give their cached value.
using SheetRows = std::vector<std::vector<std::string>>;

// Reads the sheet named `sheet_name` of the workbook at `path`. Throws dlfl::Error
// "PATH: what" when the file cannot be read, is not a readable XLSX (corrupt ZIP, CRC
// mismatch, unsupported compression) or has no such sheet.
SheetRows read_xlsx_sheet(const std::filesystem::path& path, std::string_view sheet_name);

// The same from the file's bytes; `source_name` labels error messages.
SheetRows read_xlsx_sheet(std::string_view xlsx_bytes, std::string_view sheet_name,
                          const std::string& source_name);

// Decompresses a raw DEFLATE stream (RFC 1951, no zlib/gzip header) of at most
// `max_output` bytes. Throws dlfl::Error "SOURCE: what" on a corrupt stream or when
// the output would exceed `max_output`.
std::string inflate_raw(std::string_view compressed, std::size_t max_output,
                        const std::string& source_name);

}  // namespace dlfl::eval
