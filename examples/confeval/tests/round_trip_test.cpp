// Round trips: parse -> serialize -> parse gives an equal config, and serializing is
// idempotent (serializer.h with loader.h).
#include <cstdint>
#include <limits>
#include <string>

#include "test_util.h"

namespace {

using confeval::Config;
using confeval::Value;
using confeval::parse_config;
using confeval::serialize;

struct RoundTripCase {
  const char* name;
  const char* text;
};

void PrintTo(const RoundTripCase& c, std::ostream* os) { *os << c.name; }

class RoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(RoundTrip, ParseSerializeParseIsIdentity) {
  const Config original = parse_config(GetParam().text);
  const std::string text = serialize(original);
  const Config reread = parse_config(text, "serialized");
  EXPECT_EQ(reread, original) << text;
}

TEST_P(RoundTrip, SerializingIsIdempotent) {
  const std::string once = serialize(parse_config(GetParam().text));
  EXPECT_EQ(serialize(parse_config(once)), once);
}

INSTANTIATE_TEST_SUITE_P(
    Configs, RoundTrip,
    ::testing::Values(
        RoundTripCase{"Scalars", "i = -12\nf = 2.5\nb = false\ns = 'plain'"},
        RoundTripCase{"Floats", "a = 0.1 + 0.2\nb = 1e300\nc = 1.0 / 3\nd = -0.0\ne = 2 ** -10"},
        RoundTripCase{"Escapes", R"(s = "quote \" backslash \\ tab \t nl \n cr \r bell \x07")"},
        RoundTripCase{"Dollars", R"(a = "\${not_a_ref} and $5"
b = '${raw} in single quotes')"},
        RoundTripCase{"Arrays", "a = [1, [2.5, 'x'], [], [true, [false]]]"},
        RoundTripCase{"Sections", "top = 1\n[a]\nx = 1\n[a.b]\ny = 2\n[c]\nz = top + a.x"},
        RoundTripCase{"DottedKeys", "a.b.c = 1\n[d]\ne.f = 'g'"},
        RoundTripCase{"Extremes",
                      "max = 9223372036854775807\nmin = -9223372036854775807 - 1\ntiny = 5e-324"},
        RoundTripCase{"Interpolated", "host = 'h'\nurl = \"http://${host}/\""}));

TEST(RoundTrip, ConfigBuiltInCode) {
  Config c;
  c.set("app.name", "x\"y");
  c.set("app.ratio", 0.25);
  c.set("app.limits", Value(Value::Array{1, 2, 3}));
  c.set("flag", true);
  c.set("cost", "$${x}");
  EXPECT_EQ(parse_config(serialize(c)), c);
}

TEST(RoundTrip, ValuesKeepTheirType) {
  const Config c = parse_config(serialize(parse_config("f = 3.0\ni = 3")));
  EXPECT_TRUE(c.at("f").is_float());
  EXPECT_TRUE(c.at("i").is_int());
}

TEST(RoundTrip, KeysAreOrderedBySection) {
  const Config c = parse_config("[b]\nx = 1\n[a]\ny = 2\n[b]\nz = 3");
  EXPECT_EQ(serialize(c), "[b]\nx = 1\nz = 3\n\n[a]\ny = 2\n");
}

}  // namespace
