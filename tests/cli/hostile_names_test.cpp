// Names from the user's code base in every report: a file, function or test name may hold
// HTML, spreadsheet formulas, newlines and terminal escapes, and must come out as text in
// each format (`dlfl rank --format html|csv|table|github`), never as markup, a formula, a
// forged line or a control sequence.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/have_program.h"
#include "../support/shell_output.h"
#include "cli_runner.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/formats/ranking_reader.h"
#include "dlfl/spectrum.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kScript = source_path("scripts/html-screenshot.sh");

// Element 0 is the top of the ranking (every failing test runs it, no passing one).
const std::string kHtmlFile = "src/<!--<script>x.cpp";
const std::string kFunction = "f</script><script>alert(1)</script>";
const std::string kFormulaFile = "=HYPERLINK(\"http://x\",\"y\").cpp";
const std::string kForgedLine = "a\n::error file=x::forged\x1b[31m.cpp";

class HostileNames : public ::testing::Test {
 protected:
  void SetUp() override {
    SpectrumBuilder b;
    b.add_element(kHtmlFile, 3, 3, kFunction);  // 0
    b.add_element(kFormulaFile, 5, 5, "@SUM(A1)");  // 1
    b.add_element(kForgedLine, 7, 7, "-2+3");  // 2
    b.add_element("src/plain.cpp", 9, 9, "+cmd|' /C calc'!A0");  // 3
    b.add_test(TestCase::fail("T<!--1"), {0, 1, 2, 3});
    b.add_test(TestCase::fail("T2"), {0, 1, 2});
    b.add_test(TestCase::pass("T3"), {1, 3});
    b.add_test(TestCase::pass("T4"), {2, 3});
    io::write_native(std::move(b).finish(), spectrum());
  }
  std::filesystem::path spectrum() const { return dir_ / "s.dlfl"; }
  RunResult rank(const std::string& format, const std::filesystem::path& out) const {
    return run_dlfl("rank " + spectrum().string() + " --formula ochiai --format " + format + " -o " + out.string());
  }
  TempDir dir_{"hostile-names"};
};

TEST_F(HostileNames, HtmlReportDataHoldsNoMarkupAndReadsBackTheNames) {
  const auto html = dir_ / "r.html";
  ASSERT_EQ(rank("html", html).exit_code, 0);
  const std::string page = slurp(html);
  const std::string open_tag = "<script type=\"application/json\" id=\"dlfl-data\">";
  const auto open = page.find(open_tag);
  ASSERT_NE(open, std::string::npos);
  const auto close = page.find("</script>", open);
  ASSERT_NE(close, std::string::npos);
  const std::string data = page.substr(open + open_tag.size(), close - open - open_tag.size());
  // The data element holds no '<' at all: nothing in it can end it early or switch the
  // parser into its escaped states; the page has exactly its two script elements.
  EXPECT_EQ(data.find('<'), std::string::npos);
  std::size_t scripts = 0;
  for (auto at = page.find("</script>"); at != std::string::npos; at = page.find("</script>", at + 1)) ++scripts;
  EXPECT_EQ(scripts, 2u);
  // The data is still the names, as JSON escapes.
  const auto json = nlohmann::json::parse(data, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << data.substr(0, 300);
  EXPECT_THAT(json.dump(), HasSubstr("<!--<script>x.cpp"));
}

// A report made to be shared embeds the sources under --source-root only: elements that
// name files outside it (`../`, absolute, a link inside that leads out) show no source.
TEST_F(HostileNames, HtmlReportEmbedsNoFileOutsideTheSourceRoot) {
  const std::filesystem::path root = dir_ / "root", secrets = dir_ / "secrets";
  write_text(root / "src" / "ok.cpp", "int visible_source_line;\n");
  write_text(secrets / "id_rsa", "SECRET-KEY-MATERIAL\n");
  write_text(secrets / "shadow", "SECRET-SHADOW\n");
  write_text(secrets / "linked", "SECRET-THROUGH-A-LINK\n");
  std::filesystem::create_symlink(secrets / "linked", root / "src" / "link.cpp");
  SpectrumBuilder b;
  b.add_element("src/ok.cpp", 1, 1, "f");
  b.add_element("../secrets/id_rsa", 1, 1, "g");
  b.add_element((secrets / "shadow").string(), 1, 1, "h");
  b.add_element("src/link.cpp", 1, 1, "i");
  b.add_test(TestCase::fail("T1"), {0, 1, 2, 3});
  b.add_test(TestCase::pass("T2"), {0});
  const auto spectrum = dir_ / "outside.dlfl";
  io::write_native(std::move(b).finish(), spectrum);
  const auto html = dir_ / "outside.html";
  const RunResult r = run_dlfl("rank " + spectrum.string() + " --format html --source-root " + root.string() +
                               " -o " + html.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = slurp(html);
  EXPECT_THAT(page, HasSubstr("int visible_source_line;"));
  EXPECT_THAT(page, Not(HasSubstr("SECRET")));
}

TEST_F(HostileNames, HtmlReportRendersTheHostileRowsInABrowser) {
  if (!have_program("chromium")) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it)";
  const auto html = dir_ / "r.html";
  ASSERT_EQ(rank("html", html).exit_code, 0);
  const std::string dom = dlfl::testing::shell_output(kScript + " --dump-dom " + html.string());
  // Before the fix the page was blank: "<!--<script>" in the data swallowed the script.
  EXPECT_THAT(dom, HasSubstr("4 of 4 rows shown"));
  EXPECT_THAT(dom, HasSubstr("src/&lt;!--&lt;script&gt;x.cpp"));
  EXPECT_THAT(dom, Not(HasSubstr("<script>alert(1)")));
}

TEST_F(HostileNames, CsvCellsNeverStartAFormulaAndReadBackAsTheNames) {
  const auto csv = dir_ / "r.csv";
  ASSERT_EQ(rank("csv", csv).exit_code, 0);
  const std::string text = slurp(csv);
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // header
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    // Every cell: a quoted one may start with '"', then the text; no cell's text starts
    // with = + @ or a '-' that is not a number.
    ++rows;
    std::size_t start = 0;
    bool quoted = false;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      if (i < line.size() && line[i] == '"') quoted = !quoted;
      if (i < line.size() && (quoted || line[i] != ',')) continue;
      std::string cell = line.substr(start, i - start);
      if (!cell.empty() && cell.front() == '"') cell.erase(0, 1);
      if (!cell.empty()) {
        EXPECT_NE(cell.front(), '=') << line;
        EXPECT_NE(cell.front(), '@') << line;
        EXPECT_NE(cell.front(), '+') << line;
        if (cell.front() == '-') {
          EXPECT_NO_THROW((void)std::stod(cell)) << line;
        }
      }
      start = i + 1;
    }
  }
  EXPECT_GE(rows, 4u);
  EXPECT_THAT(text, HasSubstr("'=HYPERLINK"));
  EXPECT_THAT(text, HasSubstr("'@SUM(A1)"));
  EXPECT_THAT(text, HasSubstr("'-2+3"));
  // dlfl's own reader takes the guard away again.
  const auto read = io::read_rankings(csv);
  ASSERT_EQ(read.size(), 1u);
  std::vector<std::string> files, functions;
  for (const auto& e : read.front().elements) {
    files.push_back(e.file);
    functions.push_back(e.function);
  }
  EXPECT_THAT(files, ::testing::UnorderedElementsAre(kHtmlFile, kFormulaFile, kForgedLine, "src/plain.cpp"));
  EXPECT_THAT(functions, ::testing::UnorderedElementsAre(kFunction, "@SUM(A1)", "-2+3", "+cmd|' /C calc'!A0"));
}

// GZoltar's ranking file opens in spreadsheets too: no name starts a formula, and dlfl's
// reader takes the guard away again. A name with a line break cannot be written there.
TEST_F(HostileNames, GzoltarRankingGuardsFormulasAndRefusesLineBreaks) {
  SpectrumBuilder b;
  b.add_element(kFormulaFile, 5, 5, "f");
  b.add_element("src/plain.cpp", 9, 9, "g");
  b.add_test(TestCase::fail("T1"), {0});
  b.add_test(TestCase::pass("T2"), {1});
  const auto spectrum_file = dir_ / "formula.dlfl";
  io::write_native(std::move(b).finish(), spectrum_file);
  const auto out = dir_ / "ochiai.ranking.csv";
  const RunResult r = run_dlfl("rank " + spectrum_file.string() + " --formula ochiai --format gzoltar -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = slurp(out);
  EXPECT_THAT(text, HasSubstr("\n'=HYPERLINK"));
  EXPECT_EQ(text.find("\n="), std::string::npos) << text;
  const auto read = io::read_rankings(out);
  ASSERT_EQ(read.size(), 1u);
  ASSERT_FALSE(read.front().elements.empty());
  EXPECT_EQ(read.front().elements.front().file, kFormulaFile);

  const RunResult broken = rank("gzoltar", dir_ / "broken.ranking.csv");
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_THAT(broken.err, HasSubstr("has a line break in its name"));
}

// On a terminal every output is printable text, CSV and JSON included (script(1) gives
// the command a terminal).
TEST_F(HostileNames, CsvOnATerminalEscapesControlCharacters) {
  if (!have_program("script")) GTEST_SKIP() << "script (bsdutils) is not installed";
  const std::string command = std::string(DLFL_BINARY) + " rank " + spectrum().string() + " --format csv";
  const std::string shown = dlfl::testing::shell_output("script -qec '" + command + "' /dev/null");
  EXPECT_THAT(shown, HasSubstr("forged\\x1b[31m"));
  EXPECT_EQ(shown.find('\x1b'), std::string::npos) << shown;
}

TEST_F(HostileNames, TableAndGithubOutputsEscapeControlCharacters) {
  for (const std::string format : {"table", "github"}) {
    const auto out = dir_ / ("r." + format);
    const RunResult r = rank(format, out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = slurp(out);
    EXPECT_EQ(text.find('\x1b'), std::string::npos) << format;
    // No line of the output starts with the forged workflow command.
    EXPECT_EQ(text.find("\n::error"), std::string::npos) << format << "\n" << text;
    // GitHub's property escaping then turns the name's ':' into %3A.
    EXPECT_THAT(text, HasSubstr(format == "table" ? "a\\n::error file=x::forged\\x1b[31m.cpp"
                                                  : "a\\n%3A%3Aerror file=x%3A%3Aforged\\x1b[31m.cpp"))
        << format << "\n" << text;
  }
  // One table row per element: the title, the header and four rows.
  const std::string table = slurp(dir_ / "r.table");
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 6) << table;
}

}  // namespace
}  // namespace dlfl::testing
