// Matrix Market coordinate coverage matrix + tests/elements sidecars.
#include "dlfl/formats/matrix_market_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "dlfl/csv_field.h"
#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/companion_files.h"
#include "gzoltar_text.h"
#include "test_outcomes_csv.h"

namespace dlfl::io {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kBanner = "%%MatrixMarket";
constexpr std::string_view kTestsSuffix = ".tests.csv";
constexpr std::string_view kElementsSuffix = ".elements.csv";

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

template <class T>
T parse_number(std::string_view text, const std::string& file, std::size_t line, const char* what) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw Error(file, line, std::string("expected ") + what + ", found '" + excerpt(text) + "'");
  return value;
}

// Whitespace-separated words of a line, without copying.
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace

fs::path matrix_market_tests_path(const fs::path& mtx) {
  fs::path p = mtx;
  return p.replace_extension(std::string(kTestsSuffix));
}

fs::path matrix_market_elements_path(const fs::path& mtx) {
  fs::path p = mtx;
  return p.replace_extension(std::string(kElementsSuffix));
}

Spectrum read_matrix_market(const fs::path& mtx) {
  const std::string file = mtx.string();
  // The sidecars recorded by the writer (comments after the banner) are checked before
  // they are read: ones written by another run would pair with this file's entries.
  fs::path tests_path = matrix_market_tests_path(mtx);
  fs::path elements_path = matrix_market_elements_path(mtx);
  {
    detail::TextFileLines comments(mtx);
    std::string_view line;
    if (comments.next(line))
      while (comments.next(line) && line.starts_with('%')) {
        const std::string_view rest = line.substr(std::min(line.find_first_not_of("% "), line.size()));
        if (!rest.starts_with(detail::kCompanionTag)) continue;
        const std::string_view record = rest.substr(detail::kCompanionTag.size());
        const fs::path companion =
            detail::check_companion(mtx, comments.line_number(), record, {kTestsSuffix, kElementsSuffix});
        (record.starts_with(kTestsSuffix) ? tests_path : elements_path) = companion;
      }
  }
  SpectrumBuilder builder;
  {
    detail::TextFileLines lines = detail::element_name_lines(elements_path);
    std::string_view header;
    if (!lines.next(header) || header != "name") throw Error(elements_path.string(), 1, "expected the header 'name'");
    detail::add_spectra_lines(lines, elements_path.string(), builder, nullptr);
  }
  std::vector<TestCase> tests = detail::read_test_outcomes(tests_path);

  // Streamed, lines bounded: a garbage file is refused at its banner, not after all of
  // it has been read.
  detail::TextFileLines lines(mtx);
  std::string_view line;
  if (!lines.next(line) || !line.starts_with(kBanner)) throw Error(file, 1, "not a Matrix Market file (no %%MatrixMarket banner)");
  const auto banner = words(line);
  if (banner.size() != 5 || lower(banner[1]) != "matrix" || lower(banner[2]) != "coordinate" ||
      (lower(banner[3]) != "pattern" && lower(banner[3]) != "integer" && lower(banner[3]) != "real") ||
      lower(banner[4]) != "general")
    throw Error(file, 1, "expected 'matrix coordinate pattern|integer|real general'");
  const bool has_values = lower(banner[3]) != "pattern";
  do {
    if (!lines.next(line)) throw Error(file, lines.line_number(), "missing the size line");
  } while (line.empty() || line.front() == '%');
  const auto size = words(line);
  if (size.size() != 3) throw Error(file, lines.line_number(), "expected 'TESTS ELEMENTS ENTRIES'");
  const auto rows = parse_number<std::size_t>(size[0], file, lines.line_number(), "a row count");
  const auto cols = parse_number<std::size_t>(size[1], file, lines.line_number(), "a column count");
  const auto entries = parse_number<std::size_t>(size[2], file, lines.line_number(), "an entry count");
  if (rows != tests.size())
    throw Error(file, lines.line_number(), std::to_string(rows) + " rows, but " +
                                               matrix_market_tests_path(mtx).filename().string() + " lists " +
                                               std::to_string(tests.size()) + " tests");
  if (cols != builder.element_count())
    throw Error(file, lines.line_number(), std::to_string(cols) + " columns, but " +
                                               matrix_market_elements_path(mtx).filename().string() + " lists " +
                                               std::to_string(builder.element_count()) + " elements");

  // Rows come in any order: gather each test's elements, then hand rows to the builder.
  std::vector<std::vector<std::uint32_t>> by_test(rows);
  std::size_t seen = 0;
  while (lines.next(line)) {
    if (line.empty() || line.front() == '%') continue;
    const auto w = words(line);
    if (w.size() != (has_values ? 3u : 2u))
      throw Error(file, lines.line_number(), has_values ? "expected 'ROW COLUMN VALUE'" : "expected 'ROW COLUMN'");
    const auto r = parse_number<std::size_t>(w[0], file, lines.line_number(), "a row index");
    const auto c = parse_number<std::size_t>(w[1], file, lines.line_number(), "a column index");
    if (r < 1 || r > rows || c < 1 || c > cols)
      throw Error(file, lines.line_number(), "entry (" + excerpt(w[0]) + ", " + excerpt(w[1]) + ") is outside the " +
                                                 std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
    ++seen;
    if (has_values) {
      // nan compares unequal to 0 and would count as covered; inf is no coverage count.
      const double value = parse_number<double>(w[2], file, lines.line_number(), "a value");
      if (!std::isfinite(value))
        throw Error(file, lines.line_number(), "value '" + excerpt(w[2]) + "' is not a finite number");
      if (value == 0.0) continue;
    }
    by_test[r - 1].push_back(static_cast<std::uint32_t>(c - 1));
  }
  if (seen != entries)
    throw Error(file, lines.line_number(), "the size line announces " + std::to_string(entries) + " entries, found " +
                                               std::to_string(seen));
  for (std::size_t t = 0; t < rows; ++t) {
    builder.add_test(std::move(tests[t]), by_test[t]);
    std::vector<std::uint32_t>().swap(by_test[t]);
  }
  try {
    return std::move(builder).finish();
  } catch (const Error& e) {
    throw Error(file, 0, e.message());
  }
}

std::size_t write_matrix_market(const Spectrum& spectrum, const fs::path& mtx) {
  AtomicFile elements(matrix_market_elements_path(mtx));
  elements.stream() << "name\n";
  std::string scratch;
  for (std::size_t e = 0; e < spectrum.element_count(); ++e)
    elements.stream() << detail::spectra_line(spectrum, e, scratch, elements.target().string()) << '\n';

  AtomicFile tests(matrix_market_tests_path(mtx));
  detail::write_test_outcomes(spectrum, tests.stream());
  elements.finish();
  tests.finish();

  AtomicFile matrix(mtx);
  auto& out = matrix.stream();
  out << kBanner << " matrix coordinate pattern general\n"
      << "% dlfl spectrum: rows = tests (" << matrix_market_tests_path(mtx).filename().string()
      << "), columns = elements (" << matrix_market_elements_path(mtx).filename().string() << ")\n";
  // Comments other readers skip: the sidecars written with this file.
  for (const std::string& record :
       {detail::companion_record(tests, kTestsSuffix), detail::companion_record(elements, kElementsSuffix)})
    if (!record.empty()) out << "% " << detail::kCompanionTag << record << '\n';
  out << spectrum.test_count() << ' ' << spectrum.element_count() << ' ' << spectrum.coverage().nnz() << '\n';
  char buffer[48];
  for (std::size_t e = 0; e < spectrum.element_count(); ++e)
    for (auto t : spectrum.coverage().tests_of(e)) {
      char* p = std::to_chars(buffer, buffer + 20, t + 1).ptr;
      *p++ = ' ';
      p = std::to_chars(p, p + 20, e + 1).ptr;
      *p++ = '\n';
      out.write(buffer, p - buffer);
    }
  commit_together({&elements, &tests}, matrix);
  return 0;
}

}  // namespace dlfl::io
