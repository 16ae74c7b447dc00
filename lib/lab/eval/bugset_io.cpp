// Private helpers of the bug-set readers: whole-file reads and an RFC 4180 CSV parser.
#include "bugset_io.h"

#include "dlfl/csv_field.h"
#include "dlfl/error.h"
#include "dlfl/files/text_file.h"

namespace dlfl::eval::detail {

std::string_view trim_blanks(std::string_view text) noexcept {
  constexpr std::string_view blanks = " \t\r\n";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(blanks);
  return text.substr(first, last - first + 1);
}

std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& source_name) {
  text = io::without_bom(text);
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  std::size_t line = 1;
  record.line = 1;
  bool in_quotes = false;
  bool record_has_content = false;  // a blank line yields no record
  std::size_t quote_line = 0;

  auto end_record = [&] {
    if (record_has_content) {
      record.fields.push_back(std::move(field));
      records.push_back(std::move(record));
    }
    record = CsvRecord{};
    field.clear();
    record_has_content = false;
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (c == '\n') ++line;
        field.push_back(c);
        if (field.size() > io::kMaxFieldBytes) io::check_field_size(field.size(), "quoted field", source_name, quote_line);
      }
      continue;
    }
    if (!record_has_content) record.line = line;
    switch (c) {
      case '"':
        in_quotes = true;
        quote_line = line;
        record_has_content = true;
        break;
      case ',':
        record.fields.push_back(std::move(field));
        field.clear();
        record_has_content = true;
        break;
      case '\r':
        if (i + 1 < text.size() && text[i + 1] == '\n') break;  // CRLF: the LF ends it
        [[fallthrough]];
      case '\n':
        end_record();
        ++line;
        break;
      default:
        field.push_back(c);
        record_has_content = true;
        if (field.size() > io::kMaxFieldBytes) io::check_field_size(field.size(), "field", source_name, line);
    }
  }
  if (in_quotes) throw Error(source_name, quote_line, "quoted field is never closed");
  end_record();
  for (CsvRecord& r : records)
    for (std::string& f : r.fields)
      if (const std::string_view kept = without_formula_guard(f); kept.size() != f.size()) f.erase(0, 1);
  return records;
}

std::vector<CsvRecord> read_csv_file(const std::filesystem::path& path) {
  return parse_csv(read_file_bytes(path, kMaxTableBytes, "table"), path.string());
}

}  // namespace dlfl::eval::detail
