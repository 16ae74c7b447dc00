// Finding things in source text for the reports that quote code: the signature of the
// function around a line, and the definition of a GoogleTest or pytest test. Heuristics on
// lines of text (no parser): each returns nothing rather than guess when unsure.
// Internal to dlfl_report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/language.h"

namespace dlfl::io::detail {

// A function's signature: its 1-based first line and its text (the lines up to the body's
// `{` or Python's `:`, at most six; a return type or template line just above included).
struct Signature {
  std::uint32_t line = 0;
  std::string text;
};

// The signature of `function` (a spectrum's function name: `ns::f(int)`, `C::m`, `f`) at
// or above 1-based `line` (at most 400 lines up), or nullopt when no definition of that
// name is found there.
std::optional<Signature> enclosing_signature(const std::vector<std::string>& lines, std::uint32_t line,
                                             std::string_view function, Language language);

// Where a test is defined, as its name tells: a pytest node id's file
// (`tests/test_a.py::TestX::test_y[1]` -> tests/test_a.py, function test_y) or a
// GoogleTest name's suite and test (`Inst/Suite.Name/0` -> Suite, Name; file empty).
struct TestName {
  std::string file;      // pytest only
  std::string suite;     // GoogleTest only
  std::string function;  // the test's function (pytest) or test name (GoogleTest)
};
std::optional<TestName> parse_test_name(std::string_view test);

// The 1-based line defining `test` in `lines` (`TEST_F(Suite, Name)`, `def test_y(`), or 0.
std::uint32_t find_test_definition(const std::vector<std::string>& lines, const TestName& test);

// The last line (1-based) of the definition starting at `first`: where its braces close
// (C/C++/CUDA) or its indented block ends (Python); at most `max_lines` lines, `cut` set
// when the definition is longer.
std::uint32_t definition_end(const std::vector<std::string>& lines, std::uint32_t first, bool python,
                             std::uint32_t max_lines, bool& cut);

}  // namespace dlfl::io::detail
