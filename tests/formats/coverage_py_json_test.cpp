// coverage.py JSON reports with contexts: tests, lines, phases, functions, and bad input.
#include "dlfl/formats/coverage_py_json.h"

#include <gtest/gtest.h>

#include "dlfl/error.h"

namespace dlfl::io {
namespace {

// What `coverage json --show-contexts` (coverage.py 6.5) writes, cut down.
constexpr const char* kReport = R"({"meta": {"version": "6.5.0", "timestamp": "2026-11-25T17:26:49", "branch_coverage": false, "show_contexts": true},
 "files": {"pkg/ops.py": {"executed_lines": [1, 3, 4, 6], "summary": {}, "missing_lines": [7], "excluded_lines": [],
   "contexts": {"1": [""], "3": ["t.py::test_a", "t.py::test_b[float16]"], "4": ["t.py::test_a"], "6": ["t.py::test_b[float16]", ""]}},
  "pkg/__init__.py": {"executed_lines": [1], "summary": {}, "missing_lines": [], "excluded_lines": [], "contexts": {"1": [""]}}},
 "totals": {}})";

std::string message_of(std::string_view text) {
  try {
    parse_coverage_py_json(text, "cov.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(CoveragePyJson, ReadsStatementsAndTheTestsOfEachLine) {
  const CoveragePyData d = parse_coverage_py_json(kReport, "cov.json");
  EXPECT_EQ(d.version, "6.5.0");
  ASSERT_EQ(d.contexts, (std::vector<std::string>{"t.py::test_a", "t.py::test_b[float16]"}));
  ASSERT_EQ(d.files.size(), 2u);
  const CoveragePyFile& ops = d.files[0].path == "pkg/ops.py" ? d.files[0] : d.files[1];
  EXPECT_EQ(ops.statements, (std::vector<std::uint32_t>{1, 3, 4, 6, 7}));
  ASSERT_EQ(ops.covered.size(), 3u);  // line 1 ran only outside the tests
  EXPECT_EQ(ops.covered[0].line, 3u);
  EXPECT_EQ(ops.covered[0].contexts, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(ops.covered[1].line, 4u);
  EXPECT_EQ(ops.covered[1].contexts, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(ops.covered[2].contexts, (std::vector<std::uint32_t>{1}));
  EXPECT_TRUE(ops.function_of_line.empty());
}

TEST(CoveragePyJson, PytestCovPhasesAreOneTest) {
  const CoveragePyData d = parse_coverage_py_json(
      "\xEF\xBB\xBF"
      R"({"meta": {"show_contexts": true}, "files": {"a.py": {"executed_lines": [2, 5], "missing_lines": [],
          "contexts": {"2": ["t.py::test_x|setup", "t.py::test_x|run"], "5": ["t.py::test_x|teardown", "t.py::test_y|run"]}}}})",
      "cov.json");
  EXPECT_EQ(d.contexts, (std::vector<std::string>{"t.py::test_x", "t.py::test_y"}));
  EXPECT_EQ(d.files[0].covered[0].contexts, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(d.files[0].covered[1].contexts, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(coverage_py_test_name("a|b|run"), "a|b");
  EXPECT_EQ(coverage_py_test_name("|run"), "|run");
}

TEST(CoveragePyJson, FunctionsOfCoverage75AreKept) {
  const CoveragePyData d = parse_coverage_py_json(
      R"({"meta": {"show_contexts": true}, "files": {"a.py": {"executed_lines": [1, 2, 3], "missing_lines": [4],
          "contexts": {"2": ["t::x"]}, "functions": {"f": {"executed_lines": [2, 3], "missing_lines": [4]},
          "": {"executed_lines": [1], "missing_lines": []}}}}})",
      "cov.json");
  EXPECT_EQ(d.files[0].function_of_line.at(2), "f");
  EXPECT_EQ(d.files[0].function_of_line.at(4), "f");
  EXPECT_FALSE(d.files[0].function_of_line.contains(1));
}

TEST(CoveragePyJson, MalformedInputIsAOneLineErrorNamingTheFile) {
  EXPECT_EQ(message_of("{\"meta\": {\n  \"x\": }").rfind("cov.json:2: not JSON: ", 0), 0u) << message_of("{\"meta\": {\n  \"x\": }");
  EXPECT_EQ(message_of("[1, 2]"), "cov.json: is not a coverage.py JSON report (no \"meta\" and \"files\" objects)");
  // Found by fuzz/coverage_py_fuzzer: a number there escaped as nlohmann's type_error.
  EXPECT_EQ(message_of(R"({"meta": {"show_contexts": 0E+1}, "files": {}})"),
            message_of(R"({"meta": {"show_contexts": false}, "files": {}})"));
  EXPECT_EQ(message_of(R"({"meta": {"show_contexts": false}, "files": {}})")
                .rfind("cov.json: has no per-test contexts (written without --show-contexts): ", 0),
            0u);
  EXPECT_EQ(message_of(R"({"meta": {"show_contexts": true}, "files": {"a.py": {"executed_lines": [1],
      "contexts": {"1": [""]}}}})").rfind("cov.json: has only the empty context", 0), 0u);
  EXPECT_EQ(message_of(R"({"meta": {"show_contexts": true}, "files": {"a.py": {"executed_lines": ["x"]}}})"),
            "cov.json: a.py executed_lines: \"x\" is not a line number");
  EXPECT_EQ(message_of(R"({"meta": {"show_contexts": true}, "files": {"a.py": {"executed_lines": [1]}}})")
                .rfind("cov.json: a.py: has no \"contexts\"", 0),
            0u);
  EXPECT_EQ(message_of(R"({"meta": {"show_contexts": true}, "files": {"a.py": {"contexts": {"one": ["t"]}}}})"),
            "cov.json: a.py: context key \"one\" is not a line number");
  for (const char* text : {"", "{", "null", "{\"meta\": 1, \"files\": {\"a.py\": 3}}"})
    EXPECT_EQ(message_of(text).find('\n'), std::string::npos) << text;
}

TEST(CoveragePyJson, AMissingFileIsAnError) {
  try {
    read_coverage_py_json("/nonexistent/cov.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/cov.json: cannot read", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace dlfl::io
