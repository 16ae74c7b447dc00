// Tests for double-quoted strings: escapes, ${...} parts, and their evaluation
// (template_string.h, and the Template case of the evaluator).
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using confeval::SourceLocation;
using confeval::SyntaxError;
using confeval::TemplatePart;
using confeval::parse_template;
using cetest::capture;
using cetest::eval;
using cetest::position;

const SourceLocation kStart{"t.conf", 3, 10};

TEST(Template, EmptyBodyHasNoParts) { EXPECT_TRUE(parse_template("", kStart).empty()); }

TEST(Template, PlainTextIsOneLiteralPart) {
  const std::vector<TemplatePart> parts = parse_template("hello world", kStart);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_FALSE(parts[0].is_reference);
  EXPECT_EQ(parts[0].text, "hello world");
  EXPECT_EQ(parts[0].where, kStart);
}

TEST(Template, ReferencesSplitTheText) {
  const std::vector<TemplatePart> parts =
      parse_template("http://${host}:${ server.port }/", kStart);
  ASSERT_EQ(parts.size(), 5u);
  EXPECT_EQ(parts[0], (TemplatePart{false, "http://", {"t.conf", 3, 10}}));
  EXPECT_EQ(parts[1], (TemplatePart{true, "host", {"t.conf", 3, 17}}));
  EXPECT_EQ(parts[2], (TemplatePart{false, ":", {"t.conf", 3, 24}}));
  EXPECT_EQ(parts[3], (TemplatePart{true, "server.port", {"t.conf", 3, 25}}));
  EXPECT_EQ(parts[4], (TemplatePart{false, "/", {"t.conf", 3, 41}}));
}

TEST(Template, DollarWithoutBraceIsLiteral) {
  const std::vector<TemplatePart> parts = parse_template("costs $5", kStart);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].text, "costs $5");
}

TEST(Template, EscapedDollarDoesNotStartAReference) {
  const std::vector<TemplatePart> parts = parse_template(R"(\${x})", kStart);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].text, "${x}");
}

struct EscapeCase {
  const char* raw;
  const char* decoded;
};

class Escape : public ::testing::TestWithParam<EscapeCase> {};

TEST_P(Escape, Decodes) {
  const std::vector<TemplatePart> parts = parse_template(GetParam().raw, kStart);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].text, GetParam().decoded);
}

INSTANTIATE_TEST_SUITE_P(Cases, Escape,
                         ::testing::Values(EscapeCase{R"(a\nb)", "a\nb"},
                                           EscapeCase{R"(\t)", "\t"}, EscapeCase{R"(\r)", "\r"},
                                           EscapeCase{R"(\\)", "\\"}, EscapeCase{R"(\")", "\""},
                                           EscapeCase{R"(\x41\x7e)", "A~"},
                                           EscapeCase{R"(\x1B[0m)", "\x1b[0m"}));

TEST(TemplateErrors, UnknownEscapePointsAtTheBackslash) {
  const SyntaxError e = capture<SyntaxError>([] { parse_template(R"(ab\q)", kStart); });
  EXPECT_EQ(e.message(), "unknown escape sequence '\\q'");
  EXPECT_EQ(position(e.where()), "3:12");
}

TEST(TemplateErrors, BadHexEscape) {
  const SyntaxError e = capture<SyntaxError>([] { parse_template(R"(\x4)", kStart); });
  EXPECT_EQ(e.message(), "\\x must be followed by two hexadecimal digits");
}

TEST(TemplateErrors, UnterminatedReference) {
  const SyntaxError e = capture<SyntaxError>([] { parse_template("a ${b", kStart); });
  EXPECT_EQ(e.message(), "unterminated '${' in string");
  EXPECT_EQ(position(e.where()), "3:12");
}

TEST(TemplateErrors, EmptyReference) {
  EXPECT_THROW(parse_template("${ }", kStart), SyntaxError);
}

TEST(TemplateErrors, ReferenceMustBeAPath) {
  const SyntaxError e = capture<SyntaxError>([] { parse_template("${a + 1}", kStart); });
  EXPECT_EQ(e.message(), "'a + 1' is not a key path");
}

TEST(TemplatePath, Validity) {
  EXPECT_TRUE(confeval::is_valid_path("a"));
  EXPECT_TRUE(confeval::is_valid_path("a_1.b2._c"));
  EXPECT_FALSE(confeval::is_valid_path(""));
  EXPECT_FALSE(confeval::is_valid_path("a."));
  EXPECT_FALSE(confeval::is_valid_path(".a"));
  EXPECT_FALSE(confeval::is_valid_path("1a"));
  EXPECT_FALSE(confeval::is_valid_path("a..b"));
}

// --- evaluation --------------------------------------------------------------------------

TEST(Interpolation, InsertsValuesAsText) {
  const confeval::Config c = confeval::parse_config(R"(
    host = "example.org"
    port = 8080
    ratio = 0.5
    secure = false
    url = "http://${host}:${port}/?r=${ratio}&s=${secure}"
  )");
  EXPECT_EQ(c.get_string("url"), "http://example.org:8080/?r=0.5&s=false");
}

TEST(Interpolation, ArraysInsertTheirDisplayForm) {
  const confeval::Config c = confeval::parse_config("list = [1, \"a\"]\nmsg = \"got ${list}\"");
  EXPECT_EQ(c.get_string("msg"), "got [1, \"a\"]");
}

TEST(Interpolation, ResolvesFromTheEnclosingSection) {
  const confeval::Config c = confeval::parse_config(R"(
    name = "global"
    [db]
    name = "orders"
    label = "db=${name}"
    [cache]
    label = "cache of ${db.name} in ${name}"
  )");
  EXPECT_EQ(c.get_string("db.label"), "db=orders");
  EXPECT_EQ(c.get_string("cache.label"), "cache of orders in global");
}

TEST(Interpolation, UnknownReferenceIsLocatedAtTheDollar) {
  const confeval::EvalError e = capture<confeval::EvalError>(
      [] { confeval::parse_config("a = 1\nb = \"x ${c}\"", "i.conf"); });
  EXPECT_EQ(e.message(), "unknown key 'c'");
  EXPECT_EQ(position(e.where()), "2:8");
}

TEST(Interpolation, StringWithoutReferencesIsALiteral) {
  EXPECT_EQ(eval(R"("tab\there")"), confeval::Value("tab\there"));
  EXPECT_EQ(eval(R"("")"), confeval::Value(""));
}

TEST(Interpolation, SingleQuotedStringsAreNotInterpolated) {
  EXPECT_EQ(eval("'${x}'"), confeval::Value("${x}"));
}

}  // namespace
