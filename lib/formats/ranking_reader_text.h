// Pieces shared by the ranking readers: number fields, CSV records and the per-format
// parsers. Internal to dlfl_formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/formats/ranking_reader.h"

namespace dlfl::io::detail {

// A score field: a decimal or scientific number, `inf`, or `nan` (any case) for an
// unscored element. Throws dlfl::Error(source, line, ...) for anything else.
double parse_score_field(std::string_view field, const std::string& source, std::size_t line);

// A line field: empty = 0 (unknown), else a positive 32-bit decimal number. Throws
// dlfl::Error(source, line, ...) otherwise.
std::uint32_t parse_line_field(std::string_view field, const std::string& source,
                               std::size_t line);

// Splits text into RFC 4180 records (',' separators, '"' quoting with "" for a quote,
// quoted fields may span lines, LF or CRLF line ends). Blank lines are skipped; a UTF-8
// byte-order mark at the start is skipped.
class CsvRecordReader {
 public:
  CsvRecordReader(std::string_view text, const std::string& source);
  // The next record's fields; false at the end. Throws dlfl::Error(source, line, ...)
  // for a quote left open, or text between a closing quote and the next separator.
  bool next(std::vector<std::string>& fields);
  // 1-based line on which the record last returned starts.
  std::size_t line_number() const noexcept { return record_line_; }

 private:
  std::string_view text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  std::size_t record_line_ = 0;
};

std::vector<ReadRanking> parse_csv_rankings(std::string_view text, const std::string& source);
std::vector<ReadRanking> parse_json_rankings(std::string_view text, const std::string& source);
std::vector<ReadRanking> parse_gzoltar_ranking(std::string_view text, const std::string& source);

}  // namespace dlfl::io::detail
