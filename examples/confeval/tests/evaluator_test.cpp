// Tests for evaluation of whole configs: reference resolution and scoping, evaluation order,
// cycles, duplicates, short-circuiting and error locations (evaluator.h).
#include <string>

#include "test_util.h"

namespace {

using confeval::Config;
using confeval::EvalError;
using confeval::Value;
using confeval::parse_config;
using cetest::capture;
using cetest::position;

TEST(Evaluator, LiteralsOfEveryType) {
  const Config c = parse_config("i = 1\nf = 2.5\nb = true\ns = 'x'\na = [1, 'y', [false]]");
  EXPECT_EQ(c.at("i"), Value(1));
  EXPECT_EQ(c.at("f"), Value(2.5));
  EXPECT_EQ(c.at("b"), Value(true));
  EXPECT_EQ(c.at("s"), Value("x"));
  EXPECT_EQ(c.at("a"), Value(Value::Array{1, "y", Value::Array{false}}));
}

TEST(Evaluator, ReferencesMayPointForward) {
  const Config c = parse_config("total = base * count\nbase = 3\ncount = 4");
  EXPECT_EQ(c.get_int("total"), 12);
}

TEST(Evaluator, ChainsOfReferences) {
  const Config c = parse_config("a = b + 1\nb = c + 1\nc = d + 1\nd = 0");
  EXPECT_EQ(c.get_int("a"), 3);
}

TEST(Evaluator, DollarBraceReferenceInExpression) {
  const Config c = parse_config("[server]\nport = 8000\n[proxy]\nport = ${server.port} + 80");
  EXPECT_EQ(c.get_int("proxy.port"), 8080);
}

TEST(Evaluator, KeepsDefinitionOrder) {
  const Config c = parse_config("z = 1\n[m]\na = 2\n[b]\nc = 3");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c.entries()[0].path, "z");
  EXPECT_EQ(c.entries()[1].path, "m.a");
  EXPECT_EQ(c.entries()[2].path, "b.c");
}

TEST(Evaluator, EntriesRememberTheirKeyLocation) {
  const Config c = parse_config("a = 1\n\n[s]\n  b = 2", "loc.conf");
  EXPECT_EQ(c.entry("s.b")->where, (confeval::SourceLocation{"loc.conf", 4, 3}));
}

// --- scoping -----------------------------------------------------------------------------

TEST(Scope, InnermostSectionWins) {
  const Config c = parse_config(R"(
    timeout = 30
    [server]
    timeout = 10
    [server.tls]
    handshake = timeout * 2
  )");
  EXPECT_EQ(c.get_int("server.tls.handshake"), 20);
}

TEST(Scope, FallsBackToTheTopLevel) {
  const Config c = parse_config(R"(
    retries = 3
    [client]
    attempts = retries + 1
  )");
  EXPECT_EQ(c.get_int("client.attempts"), 4);
}

TEST(Scope, AbsolutePathsWorkFromAnySection) {
  const Config c = parse_config(R"(
    [a]
    x = 1
    [b]
    y = a.x + 1
  )");
  EXPECT_EQ(c.get_int("b.y"), 2);
}

TEST(Scope, RelativeDottedPathsResolveInsideTheSection) {
  const Config c = parse_config(R"(
    [app]
    db.host = "localhost"
    url = "postgres://${db.host}"
  )");
  EXPECT_EQ(c.get_string("app.url"), "postgres://localhost");
}

TEST(Scope, SiblingSectionsAreNotSearched) {
  const EvalError e = capture<EvalError>([] { parse_config("[t]\ny = 1\n[u]\nz = y"); });
  EXPECT_EQ(e.message(), "unknown key 'y' (looked up from section 'u')");
}

// --- errors ------------------------------------------------------------------------------

TEST(EvaluatorErrors, UnknownKeyNamesTheSection) {
  const EvalError e = capture<EvalError>([] { parse_config("[srv]\nport = prt + 1", "e.conf"); });
  EXPECT_EQ(e.message(), "unknown key 'prt' (looked up from section 'srv')");
  EXPECT_EQ(position(e.where()), "2:8");
  EXPECT_STREQ(e.what(), "e.conf:2:8: unknown key 'prt' (looked up from section 'srv')");
}

TEST(EvaluatorErrors, UnknownTopLevelKey) {
  const EvalError e = capture<EvalError>([] { parse_config("a = b"); });
  EXPECT_EQ(e.message(), "unknown key 'b'");
}

TEST(EvaluatorErrors, SelfReferenceIsACycle) {
  const EvalError e = capture<EvalError>([] { parse_config("a = a + 1"); });
  EXPECT_EQ(e.message(), "reference cycle: a -> a");
  EXPECT_EQ(position(e.where()), "1:5");
}

TEST(EvaluatorErrors, LongerCycleListsEveryKey) {
  const EvalError e = capture<EvalError>([] { parse_config("start = a\na = b\nb = c\nc = a"); });
  EXPECT_EQ(e.message(), "reference cycle: a -> b -> c -> a");
  EXPECT_EQ(position(e.where()), "4:5");
}

TEST(EvaluatorErrors, CycleThroughInterpolation) {
  const EvalError e = capture<EvalError>([] { parse_config("a = \"${b}\"\nb = \"${a}\""); });
  EXPECT_EQ(e.message(), "reference cycle: a -> b -> a");
}

TEST(EvaluatorErrors, ShadowingSelfReferenceIsACycle) {
  const EvalError e =
      capture<EvalError>([] { parse_config("limit = 10\n[job]\nlimit = limit * 2"); });
  EXPECT_EQ(e.message(), "reference cycle: job.limit -> job.limit");
}

TEST(EvaluatorErrors, DuplicateKeyPointsAtBothDefinitions) {
  const EvalError e = capture<EvalError>([] { parse_config("a = 1\nb = 2\na = 3", "d.conf"); });
  EXPECT_EQ(e.message(), "duplicate key 'a' (first set at d.conf:1:1)");
  EXPECT_EQ(position(e.where()), "3:1");
}

TEST(EvaluatorErrors, DuplicateThroughSectionAndDottedKey) {
  const EvalError e = capture<EvalError>([] { parse_config("a.b = 1\n[a]\nb = 2"); });
  EXPECT_EQ(e.message(), "duplicate key 'a.b' (first set at <input>:1:1)");
}

TEST(EvaluatorErrors, RepeatedSectionHeaderIsFineWithoutDuplicates) {
  const Config c = parse_config("[a]\nx = 1\n[b]\ny = 2\n[a]\nz = 3");
  EXPECT_EQ(c.keys_in("a"), (std::vector<std::string>{"x", "z"}));
}

TEST(EvaluatorErrors, ErrorInAnUnreferencedKeyStillFails) {
  EXPECT_THROW(parse_config("ok = 1\nunused = 1 / 0"), EvalError);
}

// --- short-circuiting --------------------------------------------------------------------

TEST(ShortCircuit, AndSkipsTheRightOperandWhenFalse) {
  const Config c = parse_config("tls = false\nok = tls && 1 / 0 > 0");
  EXPECT_FALSE(c.get_bool("ok"));
}

TEST(ShortCircuit, OrSkipsTheRightOperandWhenTrue) {
  const Config c = parse_config("debug = true\nverbose = debug || missing_key");
  EXPECT_TRUE(c.get_bool("verbose"));
}

TEST(ShortCircuit, RightOperandDecidesOtherwise) {
  const Config c = parse_config("a = true && 2 > 3\nb = false || 2 < 3");
  EXPECT_FALSE(c.get_bool("a"));
  EXPECT_TRUE(c.get_bool("b"));
}

TEST(ShortCircuit, ConditionalEvaluatesOneBranch) {
  const Config c = parse_config("n = 0\nr = n == 0 ? 0 : 100 / n");
  EXPECT_EQ(c.get_int("r"), 0);
}

TEST(ShortCircuit, RightOperandMustStillBeABool) {
  const EvalError e = capture<EvalError>([] { parse_config("a = true && 5"); });
  EXPECT_EQ(e.message(), "operand of '&&' must be a bool, not int");
  EXPECT_EQ(position(e.where()), "1:13");
}

// --- a realistic file --------------------------------------------------------------------

TEST(Evaluator, ServiceConfiguration) {
  const Config c = parse_config(R"(# a web service
name = "shop"
env = "prod"
debug = env != "prod"

[server]
host = "0.0.0.0"
port = 8000 + 80
workers = max(2, cores * 2)
cores = 4
url = "http://${host}:${port}/${name}"

[server.limits]
max_body = 16 * 1024 * 1024
timeouts = [5, 30, 2 * 60]
strict = !debug && port >= 1024
)");
  EXPECT_FALSE(c.get_bool("debug"));
  EXPECT_EQ(c.get_int("server.port"), 8080);
  EXPECT_EQ(c.get_int("server.workers"), 8);
  EXPECT_EQ(c.get_string("server.url"), "http://0.0.0.0:8080/shop");
  EXPECT_EQ(c.get_int("server.limits.max_body"), 16777216);
  EXPECT_EQ(c.at("server.limits.timeouts"), Value(Value::Array{5, 30, 120}));
  EXPECT_TRUE(c.get_bool("server.limits.strict"));
}

TEST(Evaluator, EvaluateDocumentIgnoresIncludes) {
  const confeval::Document d = confeval::parse_document("a = 1\n@include \"x.conf\"\nb = a");
  EXPECT_EQ(confeval::evaluate(d).get_int("b"), 1);
}

}  // namespace
