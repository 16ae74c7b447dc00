// GZoltar 1.7+ text spectra: spectra.csv, matrix.txt and tests.csv in one directory.
#include "dlfl/formats/gzoltar_format.h"

#include <charconv>
#include <string_view>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "gzoltar_text.h"

namespace dlfl::io {
namespace fs = std::filesystem;
using detail::LineReader;
using detail::TextFileLines;

namespace {

// One tests.csv record split on its first three commas (the stack trace, last, may hold commas).
struct TestLine {
  std::string name;
  std::string_view outcome, runtime, trace;
  bool has_trace = false;  // a fourth field exists, so following lines may continue it
};

bool is_word(std::string_view s) {
  if (s.size() < 2) return false;
  for (const char c : s)
    if (c < 'A' || c > 'Z') return false;
  return true;
}

// True when `line` starts a test record: `name,OUTCOME[,runtime[,trace]]` where OUTCOME
// is an upper-case word (unknown words are reported by the caller). Anything else is a
// continuation of a multi-line stack trace.
bool split_test_line(std::string_view line, TestLine& out) {
  std::size_t pos = 0;
  out.name.clear();
  if (!line.empty() && line[0] == '"') {
    // A quoted name, RFC 4180: "" inside stands for one quote.
    std::size_t i = 1;
    for (;;) {
      const auto q = line.find('"', i);
      if (q == std::string_view::npos) return false;
      out.name.append(line.substr(i, q - i));
      if (q + 1 < line.size() && line[q + 1] == '"') {
        out.name.push_back('"');
        i = q + 2;
        continue;
      }
      pos = q + 1;
      break;
    }
    if (pos >= line.size() || line[pos] != ',') return false;
  } else {
    pos = line.find(',');
    if (pos == std::string_view::npos) return false;
    out.name.assign(line.substr(0, pos));
  }
  auto next_field = [&](std::string_view& field) {
    const std::size_t start = pos + 1;
    const std::size_t comma = line.find(',', start);
    field = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    pos = comma;
    return comma != std::string_view::npos;
  };
  out.runtime = out.trace = {};
  out.has_trace = false;
  if (next_field(out.outcome) && next_field(out.runtime)) {
    out.trace = line.substr(pos + 1);
    out.has_trace = true;
  }
  return is_word(out.outcome);
}

std::vector<TestCase> read_tests_csv(const fs::path& path) {
  const std::string file = path.string();
  // Streamed: a line is a test's record or a line of its stack trace, each at most a field.
  TextFileLines lines(path, kMaxFieldBytes, "line");
  std::string_view line;
  if (!lines.next(line) || line.rfind("name,outcome", 0) != 0)
    throw Error(file, 1, "expected the header name,outcome,runtime,stacktrace");
  std::vector<TestCase> tests;
  TestLine record;
  bool trace_open = false;
  std::size_t blank_lines = 0;  // kept for traces that go on after a blank line
  while (lines.next(line)) {
    if (!split_test_line(line, record)) {
      if (line.empty()) {
        ++blank_lines;
        continue;
      }
      if (!trace_open)
        throw Error(file, lines.line_number(),
                    "expected name,outcome,runtime,stacktrace, found '" + excerpt(line) + "'");
      auto& message = tests.back().message;
      message.append(blank_lines + 1, '\n').append(line);
      blank_lines = 0;
      continue;
    }
    blank_lines = 0;
    TestCase test;
    if (record.outcome == "PASS") {
      test = TestCase::pass(std::move(record.name));
    } else if (record.outcome == "FAIL" || record.outcome == "ERROR") {
      test = TestCase::fail(std::move(record.name));
    } else {
      throw Error(file, lines.line_number(),
                  "unknown outcome '" + excerpt(record.outcome) +
                      "': expected PASS, FAIL or ERROR");
    }
    if (!record.runtime.empty()) {
      const auto* first = record.runtime.data();
      const auto* last = first + record.runtime.size();
      const auto [end, ec] = std::from_chars(first, last, test.runtime_ns);
      if (ec != std::errc() || end != last)
        throw Error(file, lines.line_number(),
                    "runtime '" + excerpt(record.runtime) +
                        "' is not a whole number of nanoseconds");
    }
    test.message.assign(record.trace);
    trace_open = record.has_trace;
    tests.push_back(std::move(test));
  }
  return tests;
}

// A name field for tests.csv: quoted (RFC 4180) only when plain text would not read back.
void write_test_name(std::ostream& out, std::string_view name) {
  if (name.find_first_of(",\"") == std::string_view::npos) {
    out << name;
    return;
  }
  out << '"';
  for (const char c : name) {
    if (c == '"') out << '"';
    out << c;
  }
  out << '"';
}

// A stack trace: its first line follows the third comma; a later line that would read
// as a new test record (`x,WORD...`) gets a leading '"', which makes it a continuation.
void write_trace(std::ostream& out, std::string_view trace) {
  std::size_t start = 0;
  TestLine probe;
  for (bool first = true;; first = false) {
    const std::size_t end = trace.find('\n', start);
    const auto line = trace.substr(start, end == std::string_view::npos ? std::string_view::npos
                                                                         : end - start);
    if (!first) {
      out << '\n';
      if (split_test_line(line, probe)) out << '"';
    }
    out << line;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

}  // namespace

Spectrum read_gzoltar(const fs::path& path, std::vector<FaultMark>* marks) {
  std::error_code ec;
  const fs::path dir =
      fs::is_regular_file(path, ec) && path.filename() == "matrix.txt" ? path.parent_path() : path;
  if (!fs::is_directory(dir, ec))
    throw Error(dir.string(), 0, "not a directory (expected GZoltar's matrix.txt, spectra.csv, tests.csv)");

  SpectrumBuilder builder;
  const fs::path spectra_path = dir / "spectra.csv";
  {
    const std::string file = spectra_path.string();
    TextFileLines lines = detail::element_name_lines(spectra_path);
    std::string_view line;
    if (!lines.next(line) || line != "name") throw Error(file, 1, "expected the header 'name'");
    detail::add_spectra_lines(lines, file, builder, marks);
  }

  const fs::path tests_path = dir / "tests.csv";
  std::vector<TestCase> tests = read_tests_csv(tests_path);

  const fs::path matrix_path = dir / "matrix.txt";
  const std::string matrix_file = matrix_path.string();
  // Streamed: the matrix is by far the largest file, and garbage in it is refused after
  // one row's worth of bytes instead of after reading it all.
  TextFileLines matrix(matrix_path, detail::max_matrix_row_bytes(builder.element_count()), "matrix row");
  detail::parse_matrix(
      matrix, tests.size(), builder.element_count(), matrix_file, tests_path.filename().string(),
      [&](std::size_t row, std::size_t row_line, std::span<const std::uint32_t> covered,
          bool failed) {
        if (failed != tests[row].failed())
          throw Error(matrix_file, row_line,
                      std::string("outcome ") + (failed ? "-" : "+") + " disagrees with tests.csv, " +
                          "where test '" + tests[row].name + "' " +
                          (tests[row].failed() ? "failed" : "passed"));
        builder.add_test(std::move(tests[row]), covered);
      });
  return std::move(builder).finish();
}

std::size_t write_gzoltar(const Spectrum& spectrum, const fs::path& dir) {
  AtomicDirectory out(dir);
  const fs::path& temp = out.temp_path();
  {
    AtomicFile file(temp / "spectra.csv");
    const std::string label = (out.target() / "spectra.csv").string();
    auto& s = file.stream();
    s << "name\n";
    std::string scratch;
    for (std::size_t e = 0; e < spectrum.element_count(); ++e)
      s << detail::spectra_line(spectrum, e, scratch, label) << '\n';
    file.commit();
  }
  std::size_t rounded = 0;
  {
    AtomicFile file(temp / "matrix.txt");
    rounded = detail::write_matrix(spectrum, file.stream());
    file.commit();
  }
  {
    AtomicFile file(temp / "tests.csv");
    const std::string label = (out.target() / "tests.csv").string();
    auto& s = file.stream();
    s << "name,outcome,runtime,stacktrace\n";
    for (const auto& test : spectrum.tests()) {
      if (test.name.find_first_of("\r\n") != std::string::npos)
        throw Error(label, 0, "test '" + test.name + "' has a line break in its name");
      write_test_name(s, test.name);
      s << ',' << (test.failed() ? "FAIL" : "PASS") << ',' << test.runtime_ns << ',';
      write_trace(s, test.message);
      s << '\n';
    }
    file.commit();
  }
  out.commit();
  return rounded;
}

}  // namespace dlfl::io
