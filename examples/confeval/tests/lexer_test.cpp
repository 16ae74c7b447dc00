// Tests for the lexer: token kinds, literal values, positions and lexical errors (lexer.h).
#include <cstdint>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using confeval::SyntaxError;
using confeval::Token;
using confeval::TokenKind;
using confeval::tokenize;
using cetest::capture;
using cetest::position;

std::vector<TokenKind> kinds(std::string_view text) {
  std::vector<TokenKind> result;
  for (const Token& token : tokenize(text)) {
    result.push_back(token.kind);
  }
  return result;
}

using K = TokenKind;

TEST(Lexer, EmptyInputIsJustEnd) { EXPECT_EQ(kinds(""), (std::vector<K>{K::End})); }

TEST(Lexer, Assignment) {
  EXPECT_EQ(kinds("port = 80\n"),
            (std::vector<K>{K::Identifier, K::Assign, K::Integer, K::Newline, K::End}));
}

TEST(Lexer, SectionHeader) {
  EXPECT_EQ(kinds("[a.b]"),
            (std::vector<K>{K::LeftBracket, K::Identifier, K::Dot, K::Identifier,
                            K::RightBracket, K::End}));
}

TEST(Lexer, TwoCharacterOperatorsWin) {
  EXPECT_EQ(kinds("** == != <= >= && || ${"),
            (std::vector<K>{K::StarStar, K::Equal, K::NotEqual, K::LessEqual, K::GreaterEqual,
                            K::AndAnd, K::OrOr, K::DollarBrace, K::End}));
}

TEST(Lexer, SingleCharacterOperators) {
  EXPECT_EQ(kinds("+ - * / % < > ! ? : , } @ ( )"),
            (std::vector<K>{K::Plus, K::Minus, K::Star, K::Slash, K::Percent, K::Less, K::Greater,
                            K::Bang, K::Question, K::Colon, K::Comma, K::RightBrace, K::At,
                            K::LeftParen, K::RightParen, K::End}));
}

TEST(Lexer, KeywordsAreNotIdentifiers) {
  const std::vector<Token> tokens = tokenize("true false truth");
  EXPECT_EQ(tokens[0].kind, K::True);
  EXPECT_EQ(tokens[1].kind, K::False);
  EXPECT_EQ(tokens[2].kind, K::Identifier);
  EXPECT_EQ(tokens[2].text, "truth");
}

TEST(Lexer, CommentsRunToEndOfLine) {
  EXPECT_EQ(kinds("a = 1 # the answer = 42\n# whole line\n"),
            (std::vector<K>{K::Identifier, K::Assign, K::Integer, K::Newline, K::Newline, K::End}));
}

TEST(Lexer, NewlinesInsideBracketsAreDropped) {
  EXPECT_EQ(kinds("a = [1,\n 2]\n"),
            (std::vector<K>{K::Identifier, K::Assign, K::LeftBracket, K::Integer, K::Comma,
                            K::Integer, K::RightBracket, K::Newline, K::End}));
  EXPECT_EQ(kinds("(1\n+ 2)"), (std::vector<K>{K::LeftParen, K::Integer, K::Plus, K::Integer,
                                               K::RightParen, K::End}));
}

TEST(Lexer, CarriageReturnsAreBlank) {
  EXPECT_EQ(kinds("a = 1\r\nb = 2\r\n"),
            (std::vector<K>{K::Identifier, K::Assign, K::Integer, K::Newline, K::Identifier,
                            K::Assign, K::Integer, K::Newline, K::End}));
}

TEST(Lexer, PositionsAreOneBasedLineAndColumn) {
  const std::vector<Token> tokens = tokenize("a = 1\n  bb = 22", "f.conf");
  EXPECT_EQ(tokens[0].where.file, "f.conf");
  EXPECT_EQ(position(tokens[0].where), "1:1");
  EXPECT_EQ(position(tokens[2].where), "1:5");
  EXPECT_EQ(position(tokens[3].where), "1:6");  // the newline itself
  EXPECT_EQ(position(tokens[4].where), "2:3");
  EXPECT_EQ(position(tokens[6].where), "2:8");
}

TEST(Lexer, TabCountsAsOneColumn) {
  const std::vector<Token> tokens = tokenize("\tkey");
  EXPECT_EQ(position(tokens[0].where), "1:2");
}

// --- numbers -----------------------------------------------------------------------------

struct IntCase {
  const char* text;
  std::int64_t value;
};

class IntegerLiteral : public ::testing::TestWithParam<IntCase> {};

TEST_P(IntegerLiteral, Value) {
  const std::vector<Token> tokens = tokenize(GetParam().text);
  ASSERT_EQ(tokens[0].kind, K::Integer);
  EXPECT_EQ(tokens[0].int_value, GetParam().value);
  EXPECT_EQ(tokens[0].text, GetParam().text);
  EXPECT_EQ(tokens[1].kind, K::End);
}

INSTANTIATE_TEST_SUITE_P(Decimal, IntegerLiteral,
                         ::testing::Values(IntCase{"0", 0}, IntCase{"42", 42},
                                           IntCase{"1_000_000", 1000000},
                                           IntCase{"9223372036854775807", INT64_MAX}));
INSTANTIATE_TEST_SUITE_P(Hex, IntegerLiteral,
                         ::testing::Values(IntCase{"0x0", 0}, IntCase{"0x10", 16},
                                           IntCase{"0xff", 255}, IntCase{"0xBEEF", 48879},
                                           IntCase{"0xdead_beef", 3735928559},
                                           IntCase{"0x7fffffffffffffff", INT64_MAX}));

struct FloatCase {
  const char* text;
  double value;
};

class FloatLiteral : public ::testing::TestWithParam<FloatCase> {};

TEST_P(FloatLiteral, Value) {
  const std::vector<Token> tokens = tokenize(GetParam().text);
  ASSERT_EQ(tokens[0].kind, K::Float);
  EXPECT_DOUBLE_EQ(tokens[0].float_value, GetParam().value);
  EXPECT_EQ(tokens[1].kind, K::End);
}

INSTANTIATE_TEST_SUITE_P(Cases, FloatLiteral,
                         ::testing::Values(FloatCase{"1.5", 1.5}, FloatCase{"0.25", 0.25},
                                           FloatCase{"1e3", 1000.0}, FloatCase{"2.5E-2", 0.025},
                                           FloatCase{"1_000.5", 1000.5},
                                           FloatCase{"6e+2", 600.0}));

TEST(Lexer, DotAfterIntegerWithoutDigitIsADot) {
  EXPECT_EQ(kinds("1.x"), (std::vector<K>{K::Integer, K::Dot, K::Identifier, K::End}));
}

TEST(Lexer, NegativeNumbersAreMinusThenLiteral) {
  EXPECT_EQ(kinds("-5"), (std::vector<K>{K::Minus, K::Integer, K::End}));
}

// --- strings -----------------------------------------------------------------------------

TEST(Lexer, DoubleQuotedStringKeepsEscapesRaw) {
  const std::vector<Token> tokens = tokenize(R"("a\"b\n${x}")");
  ASSERT_EQ(tokens[0].kind, K::String);
  EXPECT_TRUE(tokens[0].interpolated);
  EXPECT_EQ(tokens[0].text, R"(a\"b\n${x})");
}

TEST(Lexer, SingleQuotedStringIsLiteral) {
  const std::vector<Token> tokens = tokenize(R"('C:\dir\${x}')");
  ASSERT_EQ(tokens[0].kind, K::String);
  EXPECT_FALSE(tokens[0].interpolated);
  EXPECT_EQ(tokens[0].text, R"(C:\dir\${x})");
}

TEST(Lexer, HashInsideStringIsNotAComment) {
  const std::vector<Token> tokens = tokenize("\"a # b\"");
  EXPECT_EQ(tokens[0].text, "a # b");
}

// --- errors ------------------------------------------------------------------------------

TEST(LexerErrors, UnterminatedStringPointsAtTheQuote) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("a = \"abc\nb = 1", "x.conf"); });
  EXPECT_EQ(e.message(), "unterminated string");
  EXPECT_EQ(position(e.where()), "1:5");
  EXPECT_STREQ(e.what(), "x.conf:1:5: unterminated string");
}

TEST(LexerErrors, UnexpectedCharacter) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("a = 1 ~ 2"); });
  EXPECT_EQ(e.message(), "unexpected character '~'");
  EXPECT_EQ(position(e.where()), "1:7");
}

TEST(LexerErrors, SingleAmpersandSuggestsDouble) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("a & b"); });
  EXPECT_EQ(e.message(), "unexpected character '&'; did you mean '&&'?");
}

TEST(LexerErrors, ControlByteIsShownInHex) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize(std::string("a = \x01")); });
  EXPECT_EQ(e.message(), "unexpected byte 0x01");
  EXPECT_EQ(position(e.where()), "1:5");
}

TEST(LexerErrors, LeadingZerosAreRefused) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("x = 007"); });
  EXPECT_EQ(e.message(), "leading zeros are not allowed in integer '007'");
  EXPECT_EQ(position(e.where()), "1:5");
}

TEST(LexerErrors, IntegerOutOfRange) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("9223372036854775808"); });
  EXPECT_EQ(e.message(), "integer literal '9223372036854775808' is out of range");
}

TEST(LexerErrors, HexOutOfRange) {
  EXPECT_THROW(tokenize("0x8000000000000000"), SyntaxError);
  EXPECT_THROW(tokenize("0x"), SyntaxError);
}

TEST(LexerErrors, FloatOutOfRange) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("1e999"); });
  EXPECT_EQ(e.message(), "float literal '1e999' is out of range");
}

TEST(LexerErrors, MalformedExponent) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("x = 1e+"); });
  EXPECT_EQ(e.message(), "malformed exponent in number");
  EXPECT_EQ(position(e.where()), "1:6");
}

TEST(LexerErrors, LetterAfterNumber) {
  const SyntaxError e = capture<SyntaxError>([] { tokenize("x = 12ab"); });
  EXPECT_EQ(e.message(), "unexpected character 'a' after number");
  EXPECT_EQ(position(e.where()), "1:7");
}

TEST(LexerErrors, TrailingUnderscoreIsNotPartOfTheNumber) {
  EXPECT_THROW(tokenize("1_"), SyntaxError);
}

}  // namespace
