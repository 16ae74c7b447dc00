// Tests for schema validation: types, bounds, allowed values, required, unknown and
// wildcard keys, and the order of the diagnostics (schema.h).
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using confeval::Config;
using confeval::Diagnostic;
using confeval::Rule;
using confeval::Schema;
using confeval::SchemaType;
using confeval::Value;
using confeval::parse_config;
using cetest::capture;
using cetest::position;

std::vector<std::string> messages(const std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> result;
  for (const Diagnostic& d : diagnostics) {
    result.push_back(d.message);
  }
  return result;
}

using Messages = std::vector<std::string>;

Rule rule(std::string pattern, SchemaType type) {
  Rule r;
  r.pattern = std::move(pattern);
  r.type = type;
  return r;
}

TEST(SchemaType, NamesRoundTrip) {
  for (const SchemaType t : {SchemaType::Any, SchemaType::Int, SchemaType::Float,
                             SchemaType::Bool, SchemaType::String, SchemaType::Array}) {
    EXPECT_EQ(confeval::schema_type_from_name(confeval::schema_type_name(t)), t);
  }
  EXPECT_FALSE(confeval::schema_type_from_name("number").has_value());
}

struct TypeCase {
  SchemaType type;
  Value value;
  bool matches;
};

class MatchesType : public ::testing::TestWithParam<TypeCase> {};

TEST_P(MatchesType, AsDocumented) {
  EXPECT_EQ(confeval::matches_type(GetParam().type, GetParam().value), GetParam().matches)
      << confeval::schema_type_name(GetParam().type) << " vs "
      << confeval::to_display(GetParam().value);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MatchesType,
    ::testing::Values(TypeCase{SchemaType::Int, 1, true}, TypeCase{SchemaType::Int, 1.0, false},
                      TypeCase{SchemaType::Float, 1.5, true}, TypeCase{SchemaType::Float, 2, true},
                      TypeCase{SchemaType::Float, "2", false},
                      TypeCase{SchemaType::Bool, false, true}, TypeCase{SchemaType::Bool, 0, false},
                      TypeCase{SchemaType::String, "", true},
                      TypeCase{SchemaType::Array, Value(Value::Array{}), true},
                      TypeCase{SchemaType::Any, "x", true}));

TEST(Schema, ValidConfigHasNoDiagnostics) {
  Schema schema;
  Rule port = rule("server.port", SchemaType::Int);
  port.min = 1;
  port.max = 65535;
  port.required = true;
  schema.add(port).add(rule("server.host", SchemaType::String));
  EXPECT_TRUE(schema.validate(parse_config("[server]\nport = 80\nhost = 'h'")).empty());
}

TEST(Schema, TypeMismatchIsLocatedAtTheKey) {
  Schema schema;
  schema.add(rule("port", SchemaType::Int));
  const std::vector<Diagnostic> d = schema.validate(parse_config("\n  port = '80'", "c.conf"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message, "port: expected int, found string");
  EXPECT_EQ(d[0].path, "port");
  EXPECT_EQ(d[0].where, (confeval::SourceLocation{"c.conf", 2, 3}));
}

TEST(Schema, FloatRuleAcceptsAnInt) {
  Schema schema;
  schema.add(rule("ratio", SchemaType::Float));
  EXPECT_TRUE(schema.validate(parse_config("ratio = 1")).empty());
}

TEST(Schema, NumericBoundsAreInclusive) {
  Rule r = rule("n", SchemaType::Int);
  r.min = 1;
  r.max = 10;
  Schema schema;
  schema.add(r);
  EXPECT_TRUE(schema.validate(parse_config("n = 1")).empty());
  EXPECT_TRUE(schema.validate(parse_config("n = 10")).empty());
  EXPECT_EQ(messages(schema.validate(parse_config("n = 0"))),
            (Messages{"n: 0 is below the minimum 1"}));
  EXPECT_EQ(messages(schema.validate(parse_config("n = 11"))),
            (Messages{"n: 11 is above the maximum 10"}));
}

TEST(Schema, FractionalBounds) {
  Rule r = rule("p", SchemaType::Float);
  r.min = 0;
  r.max = 0.5;
  Schema schema;
  schema.add(r);
  EXPECT_EQ(messages(schema.validate(parse_config("p = 0.75"))),
            (Messages{"p: 0.75 is above the maximum 0.5"}));
}

TEST(Schema, BoundsOnStringAndArrayLengths) {
  Rule name = rule("name", SchemaType::String);
  name.min = 1;
  Rule tags = rule("tags", SchemaType::Array);
  tags.max = 2;
  Schema schema;
  schema.add(name).add(tags);
  EXPECT_EQ(messages(schema.validate(parse_config("name = ''\ntags = [1, 2, 3]"))),
            (Messages{"name: length 0 is below the minimum 1",
                      "tags: length 3 is above the maximum 2"}));
}

TEST(Schema, OneOfUsesLooseEquality) {
  Rule mode = rule("mode", SchemaType::Any);
  mode.one_of = {"fast", "safe", 1};
  Schema schema;
  schema.add(mode);
  EXPECT_TRUE(schema.validate(parse_config("mode = 1.0")).empty());
  EXPECT_EQ(messages(schema.validate(parse_config("mode = 'slow'"))),
            (Messages{"mode: \"slow\" is not one of \"fast\", \"safe\", 1"}));
}

TEST(Schema, ElementTypes) {
  Rule hosts = rule("hosts", SchemaType::Array);
  hosts.element_type = SchemaType::String;
  Schema schema;
  schema.add(hosts);
  EXPECT_EQ(messages(schema.validate(parse_config("hosts = ['a', 2, 'c', true]"))),
            (Messages{"hosts: element 1 must be string, not int",
                      "hosts: element 3 must be string, not bool"}));
}

TEST(Schema, TypeMismatchSkipsTheOtherChecks) {
  Rule r = rule("n", SchemaType::Int);
  r.min = 5;
  r.one_of = {5, 6};
  Schema schema;
  schema.add(r);
  EXPECT_EQ(messages(schema.validate(parse_config("n = 'x'"))),
            (Messages{"n: expected int, found string"}));
}

TEST(Schema, MissingRequiredKeysComeLast) {
  Rule a = rule("a", SchemaType::Int);
  a.required = true;
  Rule b = rule("b", SchemaType::Int);
  Schema schema;
  schema.add(a).add(b);
  const std::vector<Diagnostic> d = schema.validate(parse_config("b = 'x'"));
  EXPECT_EQ(messages(d), (Messages{"b: expected int, found string", "missing required key 'a'"}));
  EXPECT_FALSE(d[1].where.known());
  EXPECT_EQ(d[1].path, "a");
}

TEST(Schema, WildcardRulesApplyToEveryMatch) {
  Rule port = rule("servers.*.port", SchemaType::Int);
  port.max = 65535;
  port.required = true;
  Schema schema;
  schema.add(port);
  EXPECT_EQ(messages(schema.validate(parse_config(
                "[servers.a]\nport = 1\n[servers.b]\nport = 70000\n[servers.c]\nport = 'x'"))),
            (Messages{"servers.b.port: 70000 is above the maximum 65535",
                      "servers.c.port: expected int, found string"}));
  EXPECT_EQ(messages(schema.validate(parse_config("other = 1"))),
            (Messages{"missing required key 'servers.*.port'"}));
}

TEST(Schema, UnknownKeysAreReportedOnlyWhenClosed) {
  Schema schema;
  schema.add(rule("known", SchemaType::Any));
  const Config c = parse_config("known = 1\nextra = 2");
  EXPECT_TRUE(schema.validate(c).empty());
  schema.allow_unknown_keys(false);
  EXPECT_EQ(messages(schema.validate(c)), (Messages{"extra: unknown key"}));
}

TEST(Schema, DiagnosticsAreOrderedByLocation) {
  Schema schema;
  schema.add(rule("*", SchemaType::Int)).add(rule("s.*", SchemaType::Int));
  const Config c = confeval::load_config(
      "main.conf", confeval::MemorySources{{"main.conf", "z = 'a'\n@include \"inc.conf\"\ny = 'b'"},
                                           {"inc.conf", "[s]\nx = 'c'"}});
  const std::vector<Diagnostic> d = schema.validate(c);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].path, "s.x");  // "inc.conf" sorts before "main.conf"
  EXPECT_EQ(d[1].path, "z");
  EXPECT_EQ(d[2].path, "y");
}

// --- a whole service ---------------------------------------------------------------------

Schema service_schema() {
  Rule name = rule("name", SchemaType::String);
  name.required = true;
  name.min = 1;
  Rule port = rule("server.port", SchemaType::Int);
  port.min = 1;
  port.max = 65535;
  Rule mode = rule("server.mode", SchemaType::Any);
  mode.one_of = {"fast", "safe"};
  Rule hosts = rule("server.hosts", SchemaType::Array);
  hosts.element_type = SchemaType::String;
  Schema schema;
  schema.add(name).add(port).add(mode).add(hosts).add(rule("backends.*.port", SchemaType::Int));
  schema.allow_unknown_keys(false);
  return schema;
}

TEST(Schema, ValidatesAServiceConfig) {
  const Config c = parse_config(R"(name = "svc"
[server]
port = 0
mode = "fast"
hosts = ["a", 1]
[backends.x]
port = "80"
typo = 1
)");
  EXPECT_EQ(
      messages(service_schema().validate(c)),
      (Messages{"server.port: 0 is below the minimum 1",
                "server.hosts: element 1 must be string, not int",
                "backends.x.port: expected int, found string", "backends.x.typo: unknown key"}));
}

TEST(Schema, AcceptsAValidServiceConfig) {
  const Config c = parse_config(R"(name = "svc"
[server]
port = 8000 + 80
mode = "safe"
hosts = ["a", "b"]
[backends.x]
port = server.port + 1
)");
  EXPECT_TRUE(service_schema().validate(c).empty());
}

TEST(Schema, DiagnosticsRenderWithTheirSourceLine) {
  const std::string text = "name = 'svc'\n[server]\n  port = 70000\n";
  const std::vector<Diagnostic> d = service_schema().validate(parse_config(text, "svc.conf"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(confeval::format_diagnostic(d[0], text),
            "svc.conf:3:3: error: server.port: 70000 is above the maximum 65535\n"
            "    port = 70000\n"
            "    ^");
}

}  // namespace
