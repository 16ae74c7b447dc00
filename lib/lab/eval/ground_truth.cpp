// Ground truth lists: parsing and writing "file", "file:LINE", "file:LINE:function" and
// "file:function" lines.
#include "dlfl/lab/eval/ground_truth.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ostream>

#include "bugset_io.h"
#include "dlfl/error.h"
#include "dlfl/files/text_file.h"

namespace dlfl::eval {
namespace {

// Position of the colon that ends the file name: the first ':' that is not half of a
// "::" and not a drive letter's ("C:/"); npos when there is none.
std::size_t file_end(std::string_view entry) {
  for (std::size_t k = entry.find(':'); k != std::string_view::npos; k = entry.find(':', k + 1)) {
    if (k + 1 < entry.size() && entry[k + 1] == ':') {
      ++k;  // skip the whole "::"
      continue;
    }
    const bool drive_letter = k == 1 && std::isalpha(static_cast<unsigned char>(entry[0])) &&
                              k + 1 < entry.size() && (entry[k + 1] == '/' || entry[k + 1] == '\\');
    if (!drive_letter) return k;
  }
  return std::string_view::npos;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

namespace {

// One line of a truth file into `items` (blank lines and comments add nothing).
void parse_truth_line(std::string_view raw, const std::string& source_name, std::size_t line_number,
                      std::vector<GroundTruthItem>& items) {
  const std::string_view line = detail::trim_blanks(raw);
  if (line.empty() || line.front() == '#') return;
  // A truth file is text: a NUL or another control byte means some other file.
  for (const char c : line)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
      throw Error(source_name, line_number,
                  c == '\0' ? "holds a NUL byte: not a truth file" : "holds a control character: not a truth file");
  GroundTruthItem item;
  const std::size_t colon = file_end(line);
  item.file = std::string(detail::trim_blanks(line.substr(0, colon)));
  std::replace(item.file.begin(), item.file.end(), '\\', '/');
  if (item.file.empty()) throw Error(source_name, line_number, "empty file name");
  if (colon != std::string_view::npos) {
    std::string_view rest = detail::trim_blanks(line.substr(colon + 1));
    const std::size_t second = rest.find(':');
    const std::string_view head = rest.substr(0, second);
    if (!head.empty() && std::isdigit(static_cast<unsigned char>(head.front())) && !all_digits(head))
      throw Error(source_name, line_number, "\"" + std::string(head) + "\" is not a line number");
    if (all_digits(head)) {
      const auto [end, error] = std::from_chars(head.data(), head.data() + head.size(), item.line);
      if (error != std::errc{} || item.line == 0)
        throw Error(source_name, line_number, "line number \"" + std::string(head) + "\" is not in 1.." +
                                                  std::to_string(UINT32_MAX));
      rest = second == std::string_view::npos ? std::string_view() : detail::trim_blanks(rest.substr(second + 1));
    }
    item.function = std::string(rest);
    if (item.line == 0 && item.function.empty())
      throw Error(source_name, line_number, "nothing after ':' (expected a line or a function)");
  }
  items.push_back(std::move(item));
}

}  // namespace

std::vector<GroundTruthItem> parse_ground_truth(std::string_view text, const std::string& source_name) {
  std::vector<GroundTruthItem> items;
  std::size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const std::size_t newline = text.find('\n');
    parse_truth_line(text.substr(0, newline), source_name, line_number, items);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  }
  return items;
}

std::vector<GroundTruthItem> read_ground_truth(const std::filesystem::path& path) {
  // Streamed in bounded lines: a gigabyte without a line break costs one line's bound.
  io::TextFileLines lines(path, io::kMaxFieldBytes, "truth line");
  std::vector<GroundTruthItem> items;
  for (std::string_view line; lines.next(line);) parse_truth_line(line, lines.name(), lines.line_number(), items);
  return items;
}

std::string to_string(const GroundTruthItem& item) {
  std::string text = item.file;
  if (item.line != 0) text += ":" + std::to_string(item.line);
  if (!item.function.empty()) text += ":" + item.function;
  return text;
}

void write_ground_truth(std::ostream& out, const std::vector<GroundTruthItem>& items) {
  for (const GroundTruthItem& item : items) out << to_string(item) << '\n';
}

}  // namespace dlfl::eval
