// Text pieces shared by GZoltar's two layouts: files, lines, matrix rows, element names.
#include "gzoltar_text.h"

#include <algorithm>
#include <charconv>

#include "dlfl/error.h"

namespace dlfl::io::detail {

bool LineReader::next(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  std::size_t end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  line = text_.substr(pos_, end - pos_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  pos_ = end + 1;
  ++line_;
  return true;
}

std::size_t max_matrix_row_bytes(std::size_t elements) noexcept {
  return std::max(kMaxFieldBytes, 4 * (elements + 1));
}

bool parse_matrix_row(std::string_view row, std::size_t elements, const std::string& file,
                      std::size_t line, std::vector<std::uint32_t>& covered) {
  const char* p = row.data();
  const char* const end = p + row.size();
  auto skip_blanks = [&] {
    while (p != end && (*p == ' ' || *p == '\t')) ++p;
  };
  std::size_t cells = 0;
  for (;;) {
    skip_blanks();
    if (p == end)
      throw Error(file, line,
                  "row ends without an outcome: expected + (pass) or - (fail) after " +
                      std::to_string(cells) + " cells");
    const char* token = p;
    while (p != end && *p != ' ' && *p != '\t') ++p;
    const std::string_view cell(token, static_cast<std::size_t>(p - token));
    if (cell == "+" || cell == "-") {
      skip_blanks();
      if (p != end)
        throw Error(file, line,
                    "unexpected '" + excerpt(std::string_view(p, static_cast<std::size_t>(end - p))) +
                        "' after the outcome " + std::string(cell));
      if (cells != elements)
        throw Error(file, line,
                    "row has " + std::to_string(cells) + " cells, expected " +
                        std::to_string(elements) + " (one per element)");
      return cell == "-";
    }
    if (cell == "1") {
      if (cells < elements) covered.push_back(static_cast<std::uint32_t>(cells));
    } else if (cell != "0") {
      throw Error(file, line,
                  "cell " + std::to_string(cells + 1) + " is '" + excerpt(cell) +
                      "': expected 0 or 1 (or + / - to end the row)");
    }
    ++cells;
  }
}

std::size_t write_matrix(const Spectrum& spectrum, std::ostream& out) {
  const std::size_t n = spectrum.element_count();
  // One reusable line: "0 0 ... 0 +\n"; covered cells are set to 1 and reset afterwards,
  // so a row costs O(n) to write and O(covered) to prepare.
  std::string line;
  line.reserve(2 * n + 2);
  for (std::size_t e = 0; e < n; ++e) line.append("0 ");
  line.append("+\n");
  std::size_t rounded = 0;
  const auto& tests = spectrum.tests();
  const CoverageRows rows(spectrum.coverage());  // the matrix is written test by test
  for (std::size_t t = 0; t < tests.size(); ++t) {
    const auto row = rows.row(t);
    for (const auto e : row) line[2 * std::size_t{e}] = '1';
    line[2 * n] = tests[t].failed() ? '-' : '+';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
    for (const auto e : row) line[2 * std::size_t{e}] = '0';
    if (tests[t].failure_weight > 0.0 && tests[t].failure_weight < 1.0) ++rounded;
  }
  return rounded;
}

namespace {

// Splits a FLITSR-marked name; false (outputs untouched) when there is no marker.
bool split_fault_mark(std::string_view name, std::string_view& element, std::string_view& bug) {
  // FLITSR: `pkg$Class#method:LINE[:BUG]` with a method free of ':' (its regex is
  // `([^$]+)\$([^#]+)#([^:]+):([0-9]+)(?::(.+))?`). C++ names (`ns::f():12`) hold "::"
  // in the method and so never look marked.
  const auto hash = name.find('#');
  if (hash == std::string_view::npos) return false;
  const auto colon = name.find(':', hash + 1);
  if (colon == std::string_view::npos || colon == hash + 1) return false;
  std::size_t p = colon + 1;
  while (p < name.size() && name[p] >= '0' && name[p] <= '9') ++p;
  if (p == colon + 1 || p + 1 >= name.size() || name[p] != ':') return false;
  element = name.substr(0, p);
  bug = name.substr(p + 1);
  return true;
}

// dlfl's extrinsic labels: `key=value` with an identifier-like key and no '#' anywhere
// (so `file#function:line` names are never taken for labels).
bool is_extrinsic_label(std::string_view name) {
  const auto eq = name.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  if (name.find('#') != std::string_view::npos) return false;
  const char first = name[0];
  if (!((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z') || first == '_'))
    return false;
  for (std::size_t i = 1; i < eq; ++i) {
    const char c = name[i];
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::uint32_t add_element_by_name(SpectrumBuilder& builder, std::string_view name,
                                  std::string* bug) {
  std::string_view element = name, mark;
  const bool marked = split_fault_mark(name, element, mark);
  if (bug != nullptr) bug->assign(marked ? mark : std::string_view());
  if (is_extrinsic_label(element)) return builder.add_extrinsic(element);
  // GZoltar <= 1.6 line elements: `pkg.Class#123`.
  if (const auto hash = element.rfind('#'); hash != std::string_view::npos) {
    const auto digits = element.substr(hash + 1);
    std::uint32_t line = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
    if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size())
      return builder.add_element(element.substr(0, hash), line, line, {}, element);
  }
  return builder.add_named_element(element);
}

void add_spectra_lines(TextFileLines& lines, const std::string& file, SpectrumBuilder& builder,
                       std::vector<FaultMark>* marks) {
  std::string_view line;
  std::size_t blank_run_start = 0;
  std::string bug;
  while (lines.next(line)) {
    if (line.empty()) {
      if (blank_run_start == 0) blank_run_start = lines.line_number();
      continue;
    }
    if (blank_run_start != 0) throw Error(file, blank_run_start, "empty element name");
    check_field_size(line.size(), "element name", file, lines.line_number());
    const auto id = add_element_by_name(builder, line, &bug);
    if (marks != nullptr && !bug.empty()) marks->push_back({id, bug});
  }
}

std::string_view spectra_line(const Spectrum& spectrum, std::size_t element, std::string& scratch,
                              const std::string& file) {
  scratch = spectrum.element_name(element);
  if (scratch.empty())
    throw Error(file, 0, "element " + std::to_string(element) + " has an empty name");
  if (scratch.find_first_of("\r\n") != std::string::npos)
    throw Error(file, 0,
                "element " + std::to_string(element) + " has a line break in its name");
  return scratch;
}

}  // namespace dlfl::io::detail
