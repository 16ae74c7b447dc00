// Test sources: GoogleTest listings (parameterized, typed, disabled), filters, CTest's
// JSON test list, name lists and command templates.
#include "dlfl/collect/test_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using ::testing::ElementsAre;

TEST(GtestList, PlainParameterizedAndTypedNames) {
  // Verbatim shape of GoogleTest 1.12's --gtest_list_tests (gtest.cc ListTestsMatchingFilter).
  const std::string listing =
      "Running main() from ./googletest/src/gtest_main.cc\n"
      "Calc.\n"
      "  AddSmall\n"
      "  DISABLED_Never\n"
      "TypedCalc/0.  # TypeParam = int\n"
      "  Positive\n"
      "TypedCalc/1.  # TypeParam = long\n"
      "  Positive\n"
      "Small/AddParam.\n"
      "  Works/0  # GetParam() = 0\n"
      "  Works/1  # GetParam() = (1, \"a b\")\n"
      "DISABLED_Suite.\n"
      "  Anything\n"
      "After.\r\n"
      "  Last\r\n";
  EXPECT_THAT(parse_gtest_list(listing),
              ElementsAre("Calc.AddSmall", "TypedCalc/0.Positive", "TypedCalc/1.Positive", "Small/AddParam.Works/0",
                          "Small/AddParam.Works/1", "After.Last"));
}

TEST(GtestList, IndentedLinesOutsideASuiteAreIgnored) {
  EXPECT_TRUE(parse_gtest_list("  Orphan\nnot a suite line\n  AlsoOrphan\n").empty());
}

TEST(GtestFilter, PositiveAndNegativePatterns) {
  EXPECT_TRUE(gtest_filter_matches("", "A.b"));
  EXPECT_TRUE(gtest_filter_matches("*", "A.b"));
  EXPECT_TRUE(gtest_filter_matches("A.*", "A.b"));
  EXPECT_FALSE(gtest_filter_matches("A.*", "B.b"));
  EXPECT_TRUE(gtest_filter_matches("B.*:A.?", "A.b"));
  EXPECT_FALSE(gtest_filter_matches("A.?", "A.bc"));
  EXPECT_FALSE(gtest_filter_matches("A.*-A.b*", "A.bc"));
  EXPECT_TRUE(gtest_filter_matches("A.*-A.b*", "A.c"));
  EXPECT_TRUE(gtest_filter_matches("-*Slow*", "A.fast"));
  EXPECT_FALSE(gtest_filter_matches("-*Slow*:*Hang", "A.Hang"));
  EXPECT_TRUE(gtest_filter_matches("Small/*.Works/*", "Small/AddParam.Works/1"));
  EXPECT_TRUE(gtest_filter_matches("*a*b*c", "xxaxxbxxbxxc"));  // backtracking
}

TEST(CtestJson, CommandsDirectoriesAndProperties) {
  const std::string json = testing::slurp(std::string(DLFL_SOURCE_DIR) + "/tests/collect/data/ctest_sample.json");
  std::vector<std::string> skipped;
  const auto tests = parse_ctest_json(json, "ctest_sample.json", &skipped);
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].name, "a");
  EXPECT_THAT(tests[0].argv, ElementsAre("/tmp/dlflx/ct/b/m"));
  EXPECT_EQ(tests[0].cwd, "/tmp/dlflx/ct/b");
  EXPECT_FALSE(tests[0].will_fail);
  const auto& b = tests[1];
  EXPECT_THAT(b.argv, ElementsAre("/tmp/dlflx/ct/b/m", "x"));
  EXPECT_EQ(b.cwd, "/tmp");
  EXPECT_THAT(b.env, ElementsAre("A=1", "B=2"));
  EXPECT_EQ(b.timeout, std::chrono::milliseconds(5000));
  EXPECT_TRUE(b.will_fail);
  EXPECT_EQ(b.skip_return_code, 77);
  EXPECT_THAT(b.pass_regex, ElementsAre("ok", "fine"));
  // c is DISABLED, d has no command (its executable target does not exist).
  EXPECT_THAT(skipped, ElementsAre("c", "d"));
}

TEST(CtestJson, MalformedInputNamesTheOrigin) {
  EXPECT_THROW(parse_ctest_json("{", "x.json"), Error);
  try {
    parse_ctest_json("{\"kind\": \"other\"}", "x.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("x.json: not CTest's JSON"), std::string::npos) << e.what();
  }
}

// Found by fuzz/test_listing_fuzzer: a member of the wrong type escaped as nlohmann's
// type_error; absurd TIMEOUT / SKIP_RETURN_CODE numbers were cast to integers.
TEST(CtestJson, WrongTypesAreErrorsAndAbsurdNumbersAreIgnored) {
  for (const char* bad : {R"({"kind": 4, "tests": []})", R"({"kind": "ctestInfo", "tests": [{"name": 3}]})",
                          R"({"kind": "ctestInfo", "tests": [{"name": "t", "properties": [{"name": 1}]}]})"}) {
    try {
      parse_ctest_json(bad, "x.json");
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("x.json: not CTest's JSON test list", 0), 0u) << e.what();
    }
  }
  const auto tests = parse_ctest_json(
      R"({"kind": "ctestInfo", "tests": [{"name": "t", "command": ["/bin/t"], "properties": [)"
      R"({"name": "TIMEOUT", "value": 1e300}, {"name": "SKIP_RETURN_CODE", "value": 1e300}]}]})",
      "x.json");
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_FALSE(tests[0].skip_return_code.has_value());
  EXPECT_EQ(tests[0].timeout, std::chrono::milliseconds(32000000000LL));
}

TEST(TestList, NamesCommentsBlanksAndDuplicates) {
  testing::TempDir dir;
  testing::write_text(dir / "names", "# header\n  first  \n\nsecond test\n");
  EXPECT_THAT(read_test_list(dir / "names"), ElementsAre("first", "second test"));
  testing::write_text(dir / "dup", "a\nb\na\n");
  try {
    read_test_list(dir / "dup");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(":3: test 'a' is listed twice"), std::string::npos) << e.what();
  }
  testing::write_text(dir / "empty", "# nothing\n\n");
  EXPECT_THROW(read_test_list(dir / "empty"), Error);
  EXPECT_THROW(read_test_list(dir / "missing"), Error);
}

TEST(CommandTemplate, NamesReachTheShellThroughTheEnvironmentOnly) {
  const auto tests = make_template_commands({"plain", "it's; rm -rf /"}, "run {} --name={}");
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_THAT(tests[0].argv, ElementsAre("/bin/sh", "-c", "run \"${DLFL_TEST_NAME}\" --name=\"${DLFL_TEST_NAME}\""));
  EXPECT_EQ(tests[1].argv, tests[0].argv);  // the text never depends on the name
  EXPECT_THAT(tests[1].env, ElementsAre("DLFL_TEST_NAME=it's; rm -rf /"));
  EXPECT_EQ(tests[1].name, "it's; rm -rf /");
  EXPECT_THROW(make_template_commands({"a"}, "run"), Error);
}

TEST(CommandTemplate, QuotedNameReachesTheCommandIntact) {
  testing::TempDir dir;
  const auto tests = make_template_commands({"a 'b' $c"}, "printf %s {} > " + (dir / "out").string());
  const auto r = testing::run_shell("env " + shell_quote(tests[0].env.at(0)) + " /bin/sh -c " + shell_quote(tests[0].argv[2]));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::slurp(dir / "out"), "a 'b' $c");
}

TEST(TestList, ANulInANameIsAnErrorNotADroppedTest) {
  testing::TempDir dir;
  testing::write_text(dir / "names", std::string("first\nsec\0ond\n", 14));
  try {
    (void)read_test_list(dir / "names");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(":2: test name"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("NUL"));
  }
}

}  // namespace
}  // namespace dlfl::collect

// ---- Shards ----------------------------------------------------------------------------

namespace dlfl::collect {
namespace {

TEST(Shard, ParsesIndexOverCount) {
  const Shard s = parse_shard("3/16");
  EXPECT_EQ(s.index, 3u);
  EXPECT_EQ(s.count, 16u);
  for (const char* bad : {"16/16", "1/0", "-1/4", "1", "a/b", "1/4/2", "/4", "1/ 4", ""})
    EXPECT_THROW(parse_shard(bad), Error) << bad;
}

// Every name lands in exactly one shard, the same one whatever the order, and the
// shards are not absurdly uneven.
TEST(Shard, NameSplitIsAPartition) {
  const std::size_t n = 4;
  std::vector<std::size_t> sizes(n, 0);
  for (int t = 0; t < 400; ++t) {
    const std::string name = "Suite" + std::to_string(t % 13) + ".Case" + std::to_string(t);
    std::size_t holders = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (name_shard_holds({i, n}, name)) ++holders, ++sizes[i];
    EXPECT_EQ(holders, 1u) << name;
  }
  for (const auto size : sizes) EXPECT_GT(size, 60u);
  EXPECT_TRUE(name_shard_holds({0, 1}, "anything"));
}

// Trivial tests for the check below to run in a child process of this binary.
TEST(ShardProbe, A) {}
TEST(ShardProbe, B) {}
TEST(ShardProbe, DISABLED_C) {}
TEST(ShardProbe, D) {}
TEST(ShardProbe, E) {}
TEST(ShardProbe, F) {}
TEST(ShardProbeOther, G) {}
TEST(ShardProbeOther, H) {}

// dlfl's gtest shards are what GoogleTest itself runs under GTEST_SHARD_INDEX and
// GTEST_TOTAL_SHARDS with the same filter (disabled tests not counted): checked against
// this very binary.
TEST(Shard, GtestShardsAreWhatGoogleTestRuns) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string filter = "ShardProbe*-*.E";
  std::vector<std::string> listed;
  for (const auto& t : list_gtest_tests(self, {}))
    if (gtest_filter_matches(filter, t.name)) listed.push_back(t.name);
  ASSERT_EQ(listed.size(), 6u);
  for (std::size_t count : {1u, 2u, 3u, 4u}) {
    for (std::size_t index = 0; index < count; ++index) {
      std::vector<std::string> ours;
      for (std::size_t p = 0; p < listed.size(); ++p)
        if (gtest_shard_holds({index, count}, p)) ours.push_back(listed[p]);
      const auto r = dlfl::testing::run_shell("GTEST_SHARD_INDEX=" + std::to_string(index) +
                                              " GTEST_TOTAL_SHARDS=" + std::to_string(count) + " '" + self +
                                              "' --gtest_filter='" + filter + "'");
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
      std::vector<std::string> theirs;
      std::istringstream lines(r.out);
      for (std::string line; std::getline(lines, line);)
        if (line.rfind("[ RUN      ] ", 0) == 0) theirs.push_back(line.substr(13));
      EXPECT_EQ(ours, theirs) << "shard " << index << "/" << count;
    }
  }
}

}  // namespace
}  // namespace dlfl::collect
