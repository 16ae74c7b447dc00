// The test outcomes sidecar (name,outcome,failure_weight) of the interchange formats.
#include "test_outcomes_csv.h"

#include <charconv>
#include <string>

#include "dlfl/csv_field.h"
#include "dlfl/error.h"
#include "gzoltar_text.h"

namespace dlfl::io::detail {
namespace {

constexpr std::string_view kHeader = "name,outcome,failure_weight";

// Splits `line` at `,` honouring RFC 4180 quotes; throws on an unterminated quote.
std::vector<std::string> csv_fields(std::string_view line, const std::string& file, std::size_t number) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw Error(file, number, "unterminated quoted field");
  for (std::string& f : fields)
    if (without_formula_guard(f).size() != f.size()) f.erase(0, 1);
  return fields;
}

std::string_view outcome_word(const TestCase& t) {
  if (t.failure_weight == 0.0) return "PASS";
  if (t.failure_weight < 1.0) return "FLAKY";
  if (t.status == TestStatus::crashed) return "CRASH";
  if (t.status == TestStatus::timed_out) return "TIMEOUT";
  return "FAIL";
}

}  // namespace

void write_test_outcomes(const Spectrum& spectrum, std::ostream& out) {
  out << kHeader << '\n';
  char weight[32];
  for (const auto& t : spectrum.tests()) {
    const auto [end, ec] = std::to_chars(weight, weight + sizeof weight, t.failure_weight);
    (void)ec;  // 32 bytes hold any double's shortest form
    out << csv_field(t.name) << ',' << outcome_word(t) << ',' << std::string_view(weight, end - weight) << '\n';
  }
}

std::vector<TestCase> read_test_outcomes(const std::filesystem::path& path) {
  const std::string file = path.string();
  TextFileLines lines(path, kMaxCsvLineBytes, "line");  // streamed, lines bounded
  std::string_view line;
  if (!lines.next(line) || line != kHeader) throw Error(file, 1, "expected the header '" + std::string(kHeader) + "'");
  std::vector<TestCase> tests;
  while (lines.next(line)) {
    if (line.empty()) continue;
    const auto number = lines.line_number();
    const auto fields = csv_fields(line, file, number);
    if (fields.size() != 3) throw Error(file, number, "expected 3 fields, found " + std::to_string(fields.size()));
    TestCase t;
    t.name = fields[0];
    const std::string& w = fields[2];
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), t.failure_weight);
    if (ec != std::errc() || end != w.data() + w.size())
      throw Error(file, number, "expected a failure weight, found '" + excerpt(w) + "'");
    if (!(t.failure_weight >= 0.0 && t.failure_weight <= 1.0))
      throw Error(file, number, "failure weight " + w + " is outside [0, 1]");
    const std::string& outcome = fields[1];
    if (outcome == "PASS") t.status = TestStatus::passed;
    else if (outcome == "FAIL") t.status = TestStatus::failed;
    else if (outcome == "CRASH") t.status = TestStatus::crashed;
    else if (outcome == "TIMEOUT") t.status = TestStatus::timed_out;
    else if (outcome == "FLAKY") t.status = TestStatus::flaky;
    else throw Error(file, number, "unknown outcome '" + excerpt(outcome) + "' (expected PASS, FAIL, CRASH, TIMEOUT or FLAKY)");
    const bool consistent = t.status == TestStatus::passed  ? t.failure_weight == 0.0
                            : t.status == TestStatus::flaky ? t.failure_weight > 0.0 && t.failure_weight < 1.0
                                                            : t.failure_weight == 1.0;
    if (!consistent) throw Error(file, number, "outcome " + outcome + " disagrees with failure weight " + w);
    tests.push_back(std::move(t));
  }
  return tests;
}

}  // namespace dlfl::io::detail
