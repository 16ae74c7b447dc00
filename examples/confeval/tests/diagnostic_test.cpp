// Tests for diagnostics: source excerpts with a caret, and the line:column of the errors every
// stage reports, end to end (diagnostic.h, error.h).
#include <string>

#include "test_util.h"

namespace {

using confeval::Diagnostic;
using confeval::SourceLocation;
using confeval::format_diagnostic;
using confeval::source_line;

TEST(SourceLine, PicksOneLineWithoutItsTerminator) {
  const std::string text = "first\nsecond\r\nthird";
  EXPECT_EQ(source_line(text, 1), "first");
  EXPECT_EQ(source_line(text, 2), "second");
  EXPECT_EQ(source_line(text, 3), "third");
  EXPECT_EQ(source_line(text, 4), "");
  EXPECT_EQ(source_line(text, 0), "");
}

TEST(SourceLocation, ToString) {
  EXPECT_EQ(confeval::to_string(SourceLocation{"a.conf", 3, 7}), "a.conf:3:7");
  EXPECT_EQ(confeval::to_string(SourceLocation{"a.conf", 0, 0}), "a.conf");
  EXPECT_EQ(confeval::to_string(SourceLocation{}), "<unknown>");
}

TEST(SourceLocation, OrderIsFileLineColumn) {
  EXPECT_TRUE(confeval::comes_before({"a", 9, 9}, {"b", 1, 1}));
  EXPECT_TRUE(confeval::comes_before({"a", 1, 9}, {"a", 2, 1}));
  EXPECT_TRUE(confeval::comes_before({"a", 2, 1}, {"a", 2, 2}));
  EXPECT_FALSE(confeval::comes_before({"a", 2, 2}, {"a", 2, 2}));
}

TEST(FormatDiagnostic, HeaderOnly) {
  EXPECT_EQ(format_diagnostic(Diagnostic{{"f.conf", 2, 5}, "bad thing", ""}),
            "f.conf:2:5: error: bad thing");
}

TEST(FormatDiagnostic, CaretUnderTheColumn) {
  const std::string source = "a = 1\nb = a +  'x'\n";
  EXPECT_EQ(format_diagnostic(Diagnostic{{"f.conf", 2, 7}, "cannot apply", ""}, source),
            "f.conf:2:7: error: cannot apply\n"
            "  b = a +  'x'\n"
            "        ^");
}

TEST(FormatDiagnostic, CaretInTheFirstColumn) {
  EXPECT_EQ(format_diagnostic(Diagnostic{{"f", 1, 1}, "m", ""}, "oops"),
            "f:1:1: error: m\n  oops\n  ^");
}

TEST(FormatDiagnostic, TabsAreKeptSoTheCaretLinesUp) {
  EXPECT_EQ(format_diagnostic(Diagnostic{{"f", 1, 4}, "m", ""}, "\tx\ty"),
            "f:1:4: error: m\n  \tx\ty\n  \t \t^");
}

TEST(FormatDiagnostic, CaretJustPastTheEndPointsAtAMissingToken) {
  EXPECT_EQ(format_diagnostic(Diagnostic{{"f", 1, 4}, "missing value", ""}, "a ="),
            "f:1:4: error: missing value\n  a =\n     ^");
}

TEST(FormatDiagnostic, UnknownOrOutOfRangeLocationGivesTheHeaderAlone) {
  EXPECT_EQ(format_diagnostic(Diagnostic{{}, "missing required key 'a'", "a"}, "x = 1"),
            "<unknown>: error: missing required key 'a'");
  EXPECT_EQ(format_diagnostic(Diagnostic{{"f", 1, 9}, "m", ""}, "x = 1"), "f:1:9: error: m");
  EXPECT_EQ(format_diagnostic(Diagnostic{{"f", 5, 1}, "m", ""}, "x = 1"), "f:5:1: error: m");
}

TEST(FormatDiagnostic, FromAnError) {
  const std::string source = "[srv]\nport = prt + 1\n";
  try {
    confeval::parse_config(source, "svc.conf");
    FAIL() << "expected an EvalError";
  } catch (const confeval::Error& e) {
    EXPECT_EQ(format_diagnostic(e.diagnostic(), source),
              "svc.conf:2:8: error: unknown key 'prt' (looked up from section 'srv')\n"
              "  port = prt + 1\n"
              "         ^");
  }
}

// Every stage, end to end: the text, the message and where it points.
struct LocatedError {
  const char* text;
  const char* what;
};

class ErrorLocation : public ::testing::TestWithParam<LocatedError> {};

TEST_P(ErrorLocation, WhatNamesFileLineAndColumn) {
  try {
    confeval::parse_config(GetParam().text, "t.conf");
    FAIL() << "expected an error";
  } catch (const confeval::Error& e) {
    EXPECT_STREQ(e.what(), GetParam().what);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Stages, ErrorLocation,
    ::testing::Values(
        LocatedError{"a = 1\nb = 'open", "t.conf:2:5: unterminated string"},
        LocatedError{"a = 1\n\n  b = (1 + 2", "t.conf:3:13: expected ')', found end of input"},
        LocatedError{"x = \"a\\qb\"", "t.conf:1:7: unknown escape sequence '\\q'"},
        LocatedError{"[s]\nx = 1\n[s]\nx = 2", "t.conf:4:1: duplicate key 's.x' (first set at "
                                               "t.conf:2:1)"},
        LocatedError{"a = [1, 2]\nb = a[5]", "t.conf:2:6: index 5 is out of range for array of "
                                             "length 2"},
        LocatedError{"a = 10\nb = a / (a - 10)", "t.conf:2:7: division by zero"},
        LocatedError{"a = 1\n\tb = max(a, 'x')", "t.conf:2:6: cannot apply '>' to string and int"},
        LocatedError{"x = 1 < 2 < 3", "t.conf:1:11: comparison operators cannot be chained; "
                                      "combine them with '&&'"}));

}  // namespace
