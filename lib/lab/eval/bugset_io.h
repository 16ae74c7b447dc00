// Private helpers of the bug-set readers: whole-file reads and an RFC 4180 CSV parser.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/files/text_file.h"

namespace dlfl::eval::detail {

// The file's bytes; throws dlfl::Error "PATH: ..." (a directory, unreadable) on failure.
using io::read_file_bytes;

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

// `text` without leading and trailing blanks (space, tab, CR, LF).
std::string_view trim_blanks(std::string_view text) noexcept;

}  // namespace dlfl::eval::detail
