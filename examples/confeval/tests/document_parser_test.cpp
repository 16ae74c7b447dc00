// Tests for the document parser: sections, assignments, directives, syntax errors (document.h).
#include <string>
#include <variant>

#include "test_util.h"

namespace {

using confeval::Assignment;
using confeval::Document;
using confeval::Include;
using confeval::SyntaxError;
using confeval::parse_document;
using cetest::capture;
using cetest::position;

const Assignment& assignment(const Document& d, std::size_t i) {
  return std::get<Assignment>(d.statements.at(i));
}

TEST(DocumentParser, EmptyAndCommentOnlyDocuments) {
  EXPECT_TRUE(parse_document("").statements.empty());
  EXPECT_TRUE(parse_document("\n\n# nothing\n   \n").statements.empty());
}

TEST(DocumentParser, TopLevelAssignments) {
  const Document d = parse_document("a = 1\nb = \"two\"\n", "d.conf");
  ASSERT_EQ(d.statements.size(), 2u);
  EXPECT_EQ(d.file, "d.conf");
  EXPECT_EQ(assignment(d, 0).path(), "a");
  EXPECT_EQ(assignment(d, 1).path(), "b");
  EXPECT_EQ(assignment(d, 1).section, "");
  EXPECT_EQ(position(assignment(d, 1).where), "2:1");
}

TEST(DocumentParser, SectionsApplyUntilTheNextHeader) {
  const Document d = parse_document("[server]\nhost = 'h'\n[server.tls]\nport = 443\n");
  ASSERT_EQ(d.statements.size(), 2u);
  EXPECT_EQ(assignment(d, 0).path(), "server.host");
  EXPECT_EQ(assignment(d, 1).section, "server.tls");
  EXPECT_EQ(assignment(d, 1).path(), "server.tls.port");
}

TEST(DocumentParser, DottedKeysNestUnderTheSection) {
  const Document d = parse_document("[a]\nb.c = 1\n");
  EXPECT_EQ(assignment(d, 0).section, "a");
  EXPECT_EQ(assignment(d, 0).key, "b.c");
  EXPECT_EQ(assignment(d, 0).path(), "a.b.c");
}

TEST(DocumentParser, IncludeDirective) {
  const Document d = parse_document("a = 1\n@include \"common.conf\"\nb = 2");
  ASSERT_EQ(d.statements.size(), 3u);
  const Include& include = std::get<Include>(d.statements[1]);
  EXPECT_EQ(include.target, "common.conf");
  EXPECT_EQ(position(include.where), "2:1");
}

TEST(DocumentParser, ValuesMaySpanLinesInsideBrackets) {
  const Document d = parse_document("xs = [\n  1,\n  2,\n]\ny = (1 +\n 2)\n");
  ASSERT_EQ(d.statements.size(), 2u);
  EXPECT_EQ(confeval::to_source(*assignment(d, 1).value), "(1 + 2)");
}

TEST(DocumentParser, LastLineNeedsNoNewline) {
  EXPECT_EQ(parse_document("a = 1").statements.size(), 1u);
}

struct ErrorCase {
  const char* text;
  const char* message;
  const char* position;
};

class DocumentError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DocumentError, MessageAndPosition) {
  const SyntaxError e = capture<SyntaxError>([] { parse_document(GetParam().text); });
  EXPECT_EQ(e.message(), GetParam().message);
  EXPECT_EQ(position(e.where()), GetParam().position);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DocumentError,
    ::testing::Values(
        ErrorCase{"a 1", "expected '=' after key 'a', found integer 1", "1:3"},
        ErrorCase{"a =\nb = 1", "missing value after '='", "1:4"},
        ErrorCase{"a = 1 2", "expected end of line after value, found integer 2", "1:7"},
        ErrorCase{"ok = 1\n[server\nport = 1", "expected ']' after the section name, found "
                                               "identifier 'port'", "3:1"},
        ErrorCase{"[a] b = 1", "expected end of line after section header, found identifier 'b'",
                  "1:5"},
        ErrorCase{"[]", "expected section name after '[', found ']'", "1:2"},
        ErrorCase{"= 1", "expected a key, a [section] or a directive, found '='", "1:1"},
        ErrorCase{"@import \"x\"", "unknown directive '@import'", "1:2"},
        ErrorCase{"@include x", "expected file name string after @include, found identifier 'x'",
                  "1:10"},
        ErrorCase{"@include \"\"", "@include needs a file name", "1:10"},
        ErrorCase{"@include \"${d}.conf\"", "@include file name cannot contain escapes or ${...}",
                  "1:10"},
        ErrorCase{"true = 1", "expected a key, a [section] or a directive, found 'true'", "1:1"},
        ErrorCase{"a.1 = 2", "expected identifier after '.', found integer 1", "1:3"}));

}  // namespace
