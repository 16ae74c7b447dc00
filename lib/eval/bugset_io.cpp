// Private helpers of the bug-set readers: whole-file reads and an RFC 4180 CSV parser.
#include "bugset_io.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "dlfl/error.h"

namespace dlfl::eval::detail {

std::string read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string(), 0, std::string("cannot open: ") + std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(path.string(), 0, "read error");
  return bytes;
}

std::string_view trim_blanks(std::string_view text) noexcept {
  constexpr std::string_view blanks = " \t\r\n";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(blanks);
  return text.substr(first, last - first + 1);
}

std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& source_name) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
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
    }
  }
  if (in_quotes) throw Error(source_name, quote_line, "quoted field is never closed");
  end_record();
  return records;
}

}  // namespace dlfl::eval::detail
