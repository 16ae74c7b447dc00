// Tests for writing configs back as text: literals, escaping and layout (serializer.h).
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "test_util.h"

namespace {

using confeval::Config;
using confeval::Value;
using confeval::quote_string;
using confeval::serialize;
using confeval::serialize_value;

TEST(QuoteString, PlainText) { EXPECT_EQ(quote_string("hello"), "\"hello\""); }

TEST(QuoteString, EscapesQuotesAndBackslashes) {
  EXPECT_EQ(quote_string("say \"hi\" \\o/"), R"("say \"hi\" \\o/")");
}

TEST(QuoteString, EscapesDollarSoNothingInterpolates) {
  EXPECT_EQ(quote_string("${HOME} costs $5"), R"("\${HOME} costs \$5")");
}

TEST(QuoteString, ControlCharacters) {
  EXPECT_EQ(quote_string("a\nb\tc\rd"), R"("a\nb\tc\rd")");
  EXPECT_EQ(quote_string(std::string("\x01\x7f", 2)), R"("\x01\x7f")");
}

TEST(QuoteString, Utf8PassesThrough) { EXPECT_EQ(quote_string("h\xc3\xa9"), "\"h\xc3\xa9\""); }

TEST(SerializeValue, Scalars) {
  EXPECT_EQ(serialize_value(Value(42)), "42");
  EXPECT_EQ(serialize_value(Value(-7)), "-7");
  EXPECT_EQ(serialize_value(Value(2.0)), "2.0");
  EXPECT_EQ(serialize_value(Value(0.1)), "0.1");
  EXPECT_EQ(serialize_value(Value(true)), "true");
  EXPECT_EQ(serialize_value(Value("s")), "\"s\"");
}

TEST(SerializeValue, NestedArrays) {
  EXPECT_EQ(serialize_value(Value(Value::Array{1, Value::Array{"a", false}, Value::Array{}})),
            R"([1, ["a", false], []])");
}

TEST(SerializeValue, MostNegativeIntIsWrittenAsAnExpression) {
  EXPECT_EQ(serialize_value(Value(std::numeric_limits<std::int64_t>::min())),
            "(-9223372036854775807 - 1)");
}

TEST(SerializeValue, NonFiniteFloatsCannotBeWritten) {
  EXPECT_THROW(serialize_value(Value(std::numeric_limits<double>::infinity())),
               std::invalid_argument);
  EXPECT_THROW(serialize_value(Value(std::numeric_limits<double>::quiet_NaN())),
               std::invalid_argument);
}

TEST(Serialize, EmptyConfig) { EXPECT_EQ(serialize(Config()), ""); }

TEST(Serialize, TopLevelKeysThenSections) {
  Config c;
  c.set("db.host", "h");
  c.set("name", "svc");
  c.set("db.pool.size", 4);
  c.set("db.port", 5432);
  c.set("debug", false);
  EXPECT_EQ(serialize(c),
            "name = \"svc\"\n"
            "debug = false\n"
            "\n"
            "[db]\n"
            "host = \"h\"\n"
            "port = 5432\n"
            "\n"
            "[db.pool]\n"
            "size = 4\n");
}

TEST(Serialize, WritesEvaluatedValuesNotExpressions) {
  const Config c = confeval::parse_config("a = 2\nb = a * 21\nc = \"v${b}\"");
  EXPECT_EQ(serialize(c), "a = 2\nb = 42\nc = \"v42\"\n");
}

TEST(Serialize, RefusesKeysThatAreNotIdentifiers) {
  Config c;
  c.set("bad key", 1);
  EXPECT_THROW(serialize(c), std::invalid_argument);
  Config k;
  k.set("a.true", 1);
  EXPECT_THROW(serialize(k), std::invalid_argument);
}

}  // namespace
