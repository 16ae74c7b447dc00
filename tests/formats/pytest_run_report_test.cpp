// dlfl_pytest's run report: tests, runs, extrinsic values, function tables, bad input.
#include "dlfl/formats/pytest_run_report.h"

#include <gtest/gtest.h>

#include "dlfl/error.h"

namespace dlfl::io {
namespace {

TEST(PytestRunReport, ReadsRunsExtrinsicValuesAndFunctions) {
  const PytestRunReport r = parse_pytest_run_report(
      R"({"format": "dlfl-pytest-run", "version": 1, "root": "/src", "repeat": 4, "coverage_json": "coverage.json",
          "tests": [{"name": "t.py::test_a[float16]", "runs": ["passed", "failed", "failed", "skipped"],
                     "extrinsic": ["dtype=float16", "CUDA_VISIBLE_DEVICES="]},
                    {"name": "t.py::test_b", "runs": ["passed"], "extrinsic": []}],
          "functions": {"pkg/a.py": [[3, 9, "Cls.method"], [11, 12, "f"]]}})",
      "run.json");
  EXPECT_EQ(r.root, "/src");
  EXPECT_EQ(r.repeat, 4u);
  EXPECT_EQ(r.coverage_json, "coverage.json");
  ASSERT_EQ(r.tests.size(), 2u);
  EXPECT_EQ(r.tests[0].runs, 4u);
  EXPECT_EQ(r.tests[0].failed, 2u);
  EXPECT_EQ(r.tests[0].skipped, 1u);
  EXPECT_EQ(r.tests[0].extrinsic, (std::vector<std::string>{"dtype=float16", "CUDA_VISIBLE_DEVICES="}));
  ASSERT_EQ(r.functions.at("pkg/a.py").size(), 2u);
  EXPECT_EQ(r.functions.at("pkg/a.py")[0].name, "Cls.method");
  EXPECT_EQ(r.functions.at("pkg/a.py")[0].last_line, 9u);
}

TEST(PytestRunReport, BadInputIsAOneLineError) {
  auto message = [](std::string_view text) {
    try {
      parse_pytest_run_report(text, "run.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("{\n\n x"), "run.json:3: not JSON (a dlfl_pytest run report was expected)");
  EXPECT_EQ(message(R"({"meta": {}})"), "run.json: is not a dlfl_pytest run report (\"format\": \"dlfl-pytest-run\" missing)");
  EXPECT_EQ(message(R"({"format": "dlfl-pytest-run", "version": 2})"),
            "run.json: is a dlfl_pytest run report of version 2; this dlfl reads version 1");
  EXPECT_EQ(message(R"({"format": "dlfl-pytest-run", "version": 6.66667e+65})"),
            "run.json: is a dlfl_pytest run report of version 6.66667e+65; this dlfl reads version 1");
  EXPECT_EQ(message(R"({"format": "dlfl-pytest-run", "version": 1, "root": "/", "repeat": 1,
                       "tests": [{"name": "t", "runs": ["xfailed"], "extrinsic": []}]})"),
            "run.json: t: unknown outcome \"xfailed\"");
  EXPECT_EQ(message(R"({"format": "dlfl-pytest-run", "version": 1, "root": "/", "repeat": 1, "tests": [{"name": "t"}]})"),
            "run.json: t: \"runs\" is missing or of the wrong type");
  // Found by fuzz/pytest_run_report_fuzzer: escaped as nlohmann's type_error before.
  EXPECT_EQ(message(R"({"format": 4})").rfind("run.json: not a dlfl_pytest run report: ", 0), 0u);
}

}  // namespace
}  // namespace dlfl::io
