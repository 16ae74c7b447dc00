// lcov tracefiles with per-test sections (TN:) <-> spectrum, outcomes in a sidecar.
#include "dlfl/formats/lcov_format.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <unordered_map>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/companion_files.h"
#include "gzoltar_text.h"
#include "test_outcomes_csv.h"

namespace dlfl::io {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kTestsSuffix = ".tests.csv";

template <class T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::uint32_t parse_line_number(std::string_view text, const std::string& file, std::size_t line) {
  const auto n = parse_number<std::uint32_t>(text);
  if (!n) throw Error(file, line, "line number '" + excerpt(text) + "' is not a number");
  if (*n == 0) throw Error(file, line, "line numbers start at 1");
  return *n;
}

// A tracefile line is `KEY:VALUE` (TN, SF, FN, FNDA, FNF, FNH, DA, LF, LH, BRDA, BRF,
// BRH, and keys of newer lcov versions, which are skipped) or `end_of_record`; anything
// else, and any NUL byte, means the file is not a tracefile (lcov itself refuses it).
void check_record_syntax(std::string_view line, std::string_view tag, bool has_colon, const std::string& file,
                         std::size_t number) {
  if (line.find('\0') != std::string_view::npos) throw Error(file, number, "NUL byte: not an lcov tracefile");
  const bool key = !tag.empty() && std::all_of(tag.begin(), tag.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (has_colon ? !key : tag != "end_of_record")
    throw Error(file, number, "expected an lcov record KEY:VALUE or end_of_record, found '" + excerpt(line) + "'");
}

// The tests of the sidecar by the names a TN may give them.
class TestIndex {
 public:
  explicit TestIndex(const std::vector<TestCase>& tests) {
    std::vector<std::string> names;
    for (const auto& t : tests) names.push_back(t.name);
    const auto lcov_names = lcov_test_names(names);
    for (std::size_t i = 0; i < tests.size(); ++i) {
      exact_.emplace(names[i], i);
      lcov_.emplace(lcov_names[i], i);
    }
  }
  std::optional<std::size_t> find(const std::string& name) const {
    // lcov names first: they are unique, while a rewritten name may equal another test's
    // exact name (Grid.Crash -> Grid_Crash beside a test named Grid_Crash).
    if (const auto it = lcov_.find(name); it != lcov_.end()) return it->second;
    if (const auto it = exact_.find(name); it != exact_.end()) return it->second;
    return std::nullopt;
  }

 private:
  std::unordered_map<std::string, std::size_t> exact_, lcov_;
};

struct SourceFile {
  std::string name;
  std::unordered_map<std::uint32_t, std::uint32_t> element_of_line;  // line -> element id
  std::map<std::uint32_t, std::string> functions;                     // start line -> name
};

struct LineElement {
  std::uint32_t file = 0, line = 0;
};

}  // namespace

fs::path lcov_tests_path(const fs::path& trace) {
  fs::path p = trace;
  return p.replace_extension(std::string(kTestsSuffix));
}

std::vector<std::string> lcov_test_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  std::unordered_map<std::string, std::size_t> taken;
  for (const auto& name : names) {
    std::string clean = name;
    for (auto& c : clean)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    std::string unique = clean;
    for (std::size_t n = 2; taken.count(unique); ++n) unique = clean + "_" + std::to_string(n);
    taken.emplace(unique, out.size());
    out.push_back(std::move(unique));
  }
  return out;
}

Spectrum read_lcov(const fs::path& trace) {
  // The sidecar recorded by the writer is checked before it is read: one written by
  // another run would pair its outcomes with this file's sections.
  fs::path tests_path = lcov_tests_path(trace);
  {
    io::TextFileLines comments(trace);
    std::string_view line;
    while (comments.next(line) && line.starts_with('#')) {
      const std::string_view rest = line.substr(std::min(line.find_first_not_of("# "), line.size()));
      if (rest.starts_with(detail::kCompanionTag))
        tests_path = detail::check_companion(trace, comments.line_number(),
                                             rest.substr(detail::kCompanionTag.size()), {kTestsSuffix});
    }
  }
  std::vector<TestCase> tests = detail::read_test_outcomes(tests_path);
  const TestIndex index(tests);
  // Streamed (BOM dropped, lines bounded): garbage is refused at its first line, not after
  // it has all been read.
  io::TextFileLines lines(trace);
  const std::string& file = lines.name();

  std::vector<SourceFile> files;
  std::unordered_map<std::string, std::uint32_t> file_ids;
  std::vector<LineElement> elements;
  std::vector<std::vector<std::uint32_t>> covered(tests.size());
  std::optional<std::size_t> test;  // the current TN's test; none = baseline
  constexpr std::uint32_t kNoRecord = static_cast<std::uint32_t>(-1);
  std::uint32_t source = kNoRecord;  // the open SF record's file
  std::size_t record_start = 0;

  bool any_record = false;
  std::string_view line;
  while (lines.next(line)) {
    const std::size_t number = lines.line_number();
    if (line.empty() || line.front() == '#') continue;  // the writer's companion comment
    const auto colon = line.find(':');
    const std::string_view tag = line.substr(0, colon);
    const std::string_view value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
    check_record_syntax(line, tag, colon != std::string_view::npos, file, number);
    any_record = true;
    auto unclosed = [&](std::string_view what) {
      throw Error(file, number, std::string(what) + " inside the SF record of line " + std::to_string(record_start) +
                                    ": missing end_of_record");
    };
    if (tag == "TN") {
      if (source != kNoRecord) unclosed("TN");
      const std::string name(value);
      test = index.find(name);
      if (!test && !name.empty())
        throw Error(file, number, "test '" + excerpt(name) + "' is not in " + lcov_tests_path(trace).filename().string());
    } else if (tag == "SF") {
      if (source != kNoRecord) unclosed("SF");
      if (value.empty()) throw Error(file, number, "SF without a file name");
      const auto [it, added] = file_ids.emplace(std::string(value), static_cast<std::uint32_t>(files.size()));
      if (added) files.push_back({std::string(value), {}, {}});
      source = it->second;
      record_start = number;
    } else if (tag == "DA" || tag == "FN") {
      if (source == kNoRecord) throw Error(file, number, std::string(tag) + " outside an SF record");
      const auto comma = value.find(',');
      if (comma == std::string_view::npos) throw Error(file, number, "expected " + std::string(tag) + ":LINE,...");
      const std::uint32_t at = parse_line_number(value.substr(0, comma), file, number);
      std::string_view rest = value.substr(comma + 1);
      SourceFile& f = files[source];
      if (tag == "FN") {
        // lcov 2.x: FN:START,END,NAME (a C++ name never starts with digits and a comma).
        const auto second = rest.find(',');
        if (second != std::string_view::npos && parse_number<std::uint32_t>(rest.substr(0, second)))
          rest.remove_prefix(second + 1);
        f.functions[at] = std::string(rest);
        continue;
      }
      const auto checksum = rest.find(',');
      const std::string_view count_text = rest.substr(0, checksum);
      const auto count = parse_number<long long>(count_text);
      if (!count) throw Error(file, number, "execution count '" + excerpt(count_text) + "' is not a number");
      const auto [it, added] = f.element_of_line.emplace(at, static_cast<std::uint32_t>(elements.size()));
      if (added) elements.push_back({source, at});
      if (test && *count > 0) covered[*test].push_back(it->second);
    } else if (tag == "end_of_record") {
      if (source == kNoRecord) throw Error(file, number, "end_of_record without an SF record");
      source = kNoRecord;
    }
  }
  if (source != kNoRecord)
    throw Error(file, record_start, "the SF record that starts here has no end_of_record (the file ends inside it)");
  if (!any_record) throw Error(file, 0, "holds no lcov record (TN:, SF:, DA:, ..., end_of_record): not a tracefile");

  SpectrumBuilder builder;
  for (const auto& e : elements) {
    const SourceFile& f = files[e.file];
    auto fn = f.functions.upper_bound(e.line);
    const std::string_view function = fn == f.functions.begin() ? std::string_view{} : std::prev(fn)->second;
    builder.add_element(f.name, e.line, e.line, function);
  }
  for (std::size_t t = 0; t < tests.size(); ++t) builder.add_test(std::move(tests[t]), covered[t]);
  return std::move(builder).finish();
}

std::size_t write_lcov(const Spectrum& spectrum, const fs::path& trace) {
  const std::string target = trace.string();
  // Files in order of first appearance, each with its elements in spectrum order.
  std::vector<std::string_view> files;
  std::unordered_map<std::string_view, std::size_t> file_index;
  std::vector<std::vector<std::uint32_t>> by_file;
  std::vector<std::uint32_t> file_of(spectrum.element_count());
  for (std::uint32_t e = 0; e < spectrum.element_count(); ++e) {
    const auto& r = spectrum.element(e);
    const std::string name = spectrum.element_name(e);
    if (r.kind != ElementKind::code || spectrum.file(e).empty() || r.first_line == 0)
      throw Error(target, 0, "lcov holds source lines only; element '" + name + "' is not one");
    if (r.last_line != r.first_line)
      throw Error(target, 0, "lcov holds single lines; element '" + name + "' spans lines " +
                                 std::to_string(r.first_line) + "-" + std::to_string(r.last_line));
    if (spectrum.file(e).find_first_of("\r\n") != std::string_view::npos)
      throw Error(target, 0, "element '" + name + "': a file name with a line break cannot be written");
    const auto [it, added] = file_index.emplace(spectrum.file(e), files.size());
    if (added) {
      files.push_back(spectrum.file(e));
      by_file.emplace_back();
    }
    by_file[it->second].push_back(e);
    file_of[e] = static_cast<std::uint32_t>(it->second);
  }

  AtomicFile sidecar(lcov_tests_path(trace));
  detail::write_test_outcomes(spectrum, sidecar.stream());
  sidecar.finish();
  const std::string record = detail::companion_record(sidecar, kTestsSuffix);

  AtomicFile out_file(trace);
  std::ostream& out = out_file.stream();
  // A comment (lcov 2's --comment writes them too; readers skip them): the sidecar this
  // trace belongs to.
  if (!record.empty()) out << "# " << detail::kCompanionTag << record << '\n';
  // Baseline: every line, with an FN where a run of one function's lines starts, so the
  // reader's "nearest FN above" gives every line its function back.
  out << "TN:\n";
  for (std::size_t f = 0; f < files.size(); ++f) {
    std::vector<std::uint32_t> sorted = by_file[f];
    std::sort(sorted.begin(), sorted.end(),
              [&](std::uint32_t a, std::uint32_t b) { return spectrum.element(a).first_line < spectrum.element(b).first_line; });
    for (std::size_t i = 1; i < sorted.size(); ++i)
      if (spectrum.element(sorted[i]).first_line == spectrum.element(sorted[i - 1]).first_line)
        throw Error(target, 0, "lcov holds one count per line; elements '" + spectrum.element_name(sorted[i - 1]) +
                                   "' and '" + spectrum.element_name(sorted[i]) + "' share a line");
    out << "SF:" << files[f] << '\n';
    std::string_view previous;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      const std::string_view function = spectrum.function(sorted[i]);
      if (!function.empty() && (i == 0 || function != previous))
        out << "FN:" << spectrum.element(sorted[i]).first_line << ',' << function << '\n';
      previous = function;
    }
    for (const auto e : by_file[f]) out << "DA:" << spectrum.element(e).first_line << ",0\n";
    out << "LF:" << by_file[f].size() << "\nLH:0\nend_of_record\n";
  }

  std::vector<std::string> names;
  for (const auto& t : spectrum.tests()) names.push_back(t.name);
  const auto lcov_names = lcov_test_names(names);
  const CoverageRows rows(spectrum.coverage());
  std::vector<std::vector<std::uint32_t>> covered_by_file(files.size());
  for (std::size_t t = 0; t < spectrum.test_count(); ++t) {
    out << "TN:" << lcov_names[t] << '\n';
    for (auto& v : covered_by_file) v.clear();
    for (const auto e : rows.row(t)) covered_by_file[file_of[e]].push_back(e);
    for (std::size_t f = 0; f < files.size(); ++f) {
      const auto& hit = covered_by_file[f];
      if (hit.empty()) continue;
      out << "SF:" << files[f] << '\n';
      std::vector<std::string_view> functions;
      for (const auto e : hit)
        if (!spectrum.function(e).empty()) functions.push_back(spectrum.function(e));
      std::sort(functions.begin(), functions.end());
      functions.erase(std::unique(functions.begin(), functions.end()), functions.end());
      for (const auto function : functions) out << "FNDA:1," << function << '\n';
      for (const auto e : hit) out << "DA:" << spectrum.element(e).first_line << ",1\n";
      out << "LF:" << hit.size() << "\nLH:" << hit.size() << "\nend_of_record\n";
    }
  }
  commit_together({&sidecar}, out_file);
  return 0;
}

}  // namespace dlfl::io
