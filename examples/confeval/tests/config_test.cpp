// Tests for the evaluated Config: lookup, typed access and its errors, sections (config.h).
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using confeval::AccessError;
using confeval::Config;
using confeval::Value;
using cetest::capture;
using cetest::position;

Config sample() {
  return confeval::parse_config(
      "name = 'svc'\nratio = 0.5\ncount = 3\non = true\nxs = [1]\n[db]\nhost = 'h'\n"
      "port = 5432\n[db.pool]\nsize = 4\n[cache]\nttl = 60",
      "s.conf");
}

TEST(Config, TypedGetters) {
  const Config c = sample();
  EXPECT_EQ(c.get_string("name"), "svc");
  EXPECT_DOUBLE_EQ(c.get_float("ratio"), 0.5);
  EXPECT_EQ(c.get_int("count"), 3);
  EXPECT_TRUE(c.get_bool("on"));
  EXPECT_EQ(c.get_array("xs"), (Value::Array{1}));
  EXPECT_EQ(c.get_int("db.pool.size"), 4);
}

TEST(Config, GetFloatAcceptsAnInt) { EXPECT_DOUBLE_EQ(sample().get_float("count"), 3.0); }

TEST(Config, MissingKey) {
  const Config c = sample();
  EXPECT_FALSE(c.contains("db.user"));
  EXPECT_EQ(c.find("db.user"), nullptr);
  const AccessError e = capture<AccessError>([&] { c.at("db.user"); });
  EXPECT_EQ(e.message(), "no key 'db.user'");
  EXPECT_THROW(c.get_int("nope"), AccessError);
}

TEST(Config, WrongTypeIsLocatedAtTheDefinition) {
  const Config c = sample();
  const AccessError e = capture<AccessError>([&] { c.get_int("db.host"); });
  EXPECT_EQ(e.message(), "key 'db.host' is string, not int");
  EXPECT_EQ(e.where(), (confeval::SourceLocation{"s.conf", 7, 1}));
  EXPECT_THROW(c.get_bool("count"), AccessError);
  EXPECT_THROW(c.get_float("on"), AccessError);
}

TEST(Config, ValueOrFallsBackOnlyWhenAbsent) {
  const Config c = sample();
  EXPECT_EQ(c.value_or("count", 9), Value(3));
  EXPECT_EQ(c.value_or("missing", 9), Value(9));
}

TEST(Config, KeysInASection) {
  const Config c = sample();
  EXPECT_EQ(c.keys_in(""), (std::vector<std::string>{"name", "ratio", "count", "on", "xs"}));
  EXPECT_EQ(c.keys_in("db"), (std::vector<std::string>{"host", "port"}));
  EXPECT_EQ(c.keys_in("db.pool"), (std::vector<std::string>{"size"}));
  EXPECT_TRUE(c.keys_in("nothing").empty());
}

TEST(Config, SectionsInOrderOfFirstDefinition) {
  EXPECT_EQ(sample().sections(), (std::vector<std::string>{"db", "db.pool", "cache"}));
}

TEST(Config, SetAppendsOrReplacesInPlace) {
  Config c;
  EXPECT_TRUE(c.empty());
  c.set("a", 1);
  c.set("b", "x");
  c.set("a", 2.5);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c.entries()[0].path, "a");
  EXPECT_EQ(c.at("a"), Value(2.5));
  EXPECT_FALSE(c.entry("a")->where.known());
}

TEST(Config, EqualityIgnoresOrderAndLocations) {
  Config a;
  a.set("x", 1, {"f", 1, 1});
  a.set("y", "s");
  Config b;
  b.set("y", "s");
  b.set("x", 1);
  EXPECT_EQ(a, b);
  b.set("x", 1.0);
  EXPECT_NE(a, b);
  b.set("x", 1);
  b.set("z", true);
  EXPECT_NE(a, b);
}

}  // namespace
