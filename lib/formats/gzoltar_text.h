// Text pieces shared by GZoltar's two layouts (1.7+ `txt/` and the legacy matrix/spectra
// pair): file reading, line splitting, matrix rows and element names. Internal.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/formats/gzoltar_format.h"
#include "dlfl/files/text_file.h"
#include "dlfl/spectrum.h"

namespace dlfl::io::detail {

// The whole file as one string, BOM dropped, or its lines streamed
// (include/dlfl/files/text_file.h).
using io::read_text_file;
using io::TextFileLines;

// Splits a buffer into lines without copying; strips a trailing '\r' (files written on
// Windows). line_number() is 1-based and names the line last returned.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line);
  std::size_t line_number() const noexcept { return line_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
};

// One matrix row, `1 0 1 -`: `elements` cells of 0/1 then `+` (pass) or `-` (fail).
// Fills `covered` with the columns holding 1 and returns true for a failing row. Throws
// dlfl::Error(file, line, ...) for a ragged row, a cell other than 0/1, a missing or
// unknown outcome marker, or text after it.
bool parse_matrix_row(std::string_view row, std::size_t elements, const std::string& file,
                      std::size_t line, std::vector<std::uint32_t>& covered);

// The longest matrix row a reader accepts for `elements` columns: a cell and its blank take
// two bytes, and up to twice that is allowed for wider spacing, but at least
// kMaxFieldBytes. A bound known before the rows are read, so that a garbage matrix (no
// line break in gigabytes) is refused after reading that much of it.
std::size_t max_matrix_row_bytes(std::size_t elements) noexcept;

// A file of element names, one a line (spectra.csv, the legacy spectra, .elements.csv),
// streamed with each line bounded as a name: "FILE:LINE: element name longer than the 1 MiB
// limit" as soon as that much of one is read.
inline TextFileLines element_name_lines(const std::filesystem::path& path) {
  return TextFileLines(path, kMaxFieldBytes, "element name");
}

// `rows` for a matrix whose row count nothing else gives (the legacy layout).
inline constexpr std::size_t kAnyRowCount = static_cast<std::size_t>(-1);

// Parses the matrix rows `lines` gives (a LineReader over text in memory, or a
// TextFileLines streaming a file) into `rows`-many rows, calling on_row(test index, line
// number, covered, failed) for each. Blank lines at the end of the file are ignored.
// Throws dlfl::Error(file, line, ...) when the matrix has more or fewer rows than `rows`
// (unless kAnyRowCount), or for a bad row. `what_rows` names the source of the expected
// count in messages.
template <class Lines, class OnRow>
void parse_matrix(Lines& lines, std::size_t rows, std::size_t elements, const std::string& file,
                  const std::string& what_rows, OnRow&& on_row);

// Writes the matrix of `spectrum` in GZoltar's syntax. A test counts as failing (`-`)
// when its failure weight is > 0 (TestCase::failed()); returns how many tests had a
// fractional (flaky) weight that this rounds.
std::size_t write_matrix(const Spectrum& spectrum, std::ostream& out);

// Adds the element a spectra line names to `builder` and returns its id, by the rules
// listed in gzoltar_format.h. A FLITSR fault marker's text is stored in *bug when given
// (empty when the line has none).
std::uint32_t add_element_by_name(SpectrumBuilder& builder, std::string_view name,
                                  std::string* bug = nullptr);

// Adds one element per remaining line of `lines` (blank lines at the end are ignored, a
// blank line before another element is an error), recording FLITSR marks when `marks`
// is given. The file is streamed, each line an element name bounded by kMaxFieldBytes
// (open it with element_name_lines).
void add_spectra_lines(TextFileLines& lines, const std::string& file, SpectrumBuilder& builder,
                       std::vector<FaultMark>* marks);

// An element name as a spectra line; throws dlfl::Error(file, 0, ...) when the name
// cannot be one line (empty, or holding a line break).
std::string_view spectra_line(const Spectrum& spectrum, std::size_t element, std::string& scratch,
                              const std::string& file);

// ---------------------------------------------------------------------------------------

template <class Lines, class OnRow>
void parse_matrix(Lines& lines, std::size_t rows, std::size_t elements, const std::string& file,
                  const std::string& what_rows, OnRow&& on_row) {
  std::string_view line;
  std::vector<std::uint32_t> covered;
  std::size_t row = 0;
  std::size_t blank_run_start = 0;  // first line of a run of blank lines, 0 = none
  while (lines.next(line)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      if (blank_run_start == 0) blank_run_start = lines.line_number();
      continue;
    }
    if (blank_run_start != 0) throw Error(file, blank_run_start, "empty matrix row");
    if (row == rows)
      throw Error(file, lines.line_number(),
                  "more matrix rows than tests (" + what_rows + " lists " + std::to_string(rows) +
                      ")");
    covered.clear();
    const bool failed = parse_matrix_row(line, elements, file, lines.line_number(), covered);
    on_row(row, lines.line_number(), covered, failed);
    ++row;
  }
  if (rows != kAnyRowCount && row != rows)
    throw Error(file, row + 1,
                "matrix has " + std::to_string(row) + " rows, but " + what_rows + " lists " +
                    std::to_string(rows) + " tests");
}

}  // namespace dlfl::io::detail
