// Private helpers of the bug-set readers: whole-file reads and an RFC 4180 CSV parser.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/files/text_file.h"

namespace dlfl::eval::detail {

// The file's bytes; throws dlfl::Error "PATH: ..." (a directory, unreadable) on failure.
using io::read_file_bytes;

// The largest table the eval readers take (CSV: compare inputs, label and project tables,
// evaluation batches; Denchmark's workbook and each of its XML reports), refused before it
// is read (256 MiB): a row per bug and formula is
// about 200 bytes, so the bound is over a million rows, and a table is held whole while
// it is parsed (RFC 4180 fields may span lines).
inline constexpr std::size_t kMaxTableBytes = std::size_t{256} << 20;

// One CSV record and the 1-based line it starts on (for messages).
struct CsvRecord {
  std::vector<std::string> fields;
  std::size_t line = 0;
};

// Splits CSV text into records (RFC 4180: ',' separators, '"' quoting with "" as an
// escaped quote, quoted fields may span lines; CRLF or LF line ends; a UTF-8 byte-order
// mark is skipped; blank lines are dropped). Throws dlfl::Error "SOURCE:LINE: ..." for a
// quote left open at the end of the text.
std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& source_name);

// The CSV file `path` read (bounded by kMaxTableBytes) and split as parse_csv does.
std::vector<CsvRecord> read_csv_file(const std::filesystem::path& path);

// `text` without leading and trailing blanks (space, tab, CR, LF).
std::string_view trim_blanks(std::string_view text) noexcept;

}  // namespace dlfl::eval::detail
