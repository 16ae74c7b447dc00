// Patches and the JSON Lines manifest: exact diff text, round trips, writing a directory.
#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "mutate_test_support.h"

namespace dlfl::mutate::testing {
namespace {

Mutant mutant_at(const std::string& text, const std::string& original, const std::string& replacement) {
  Mutant m;
  m.id = "a_cpp-L5-arithmetic_replace-1";
  m.file = "src/a.cpp";
  m.offset = text.find(original);
  m.original = original;
  m.replacement = replacement;
  m.line = 5;
  m.end_line = 5;
  m.column = 3;
  m.op = "arithmetic_replace";
  m.function = "ns::f";
  return m;
}

TEST(UnifiedDiff, ThreeLinesOfContext) {
  const std::string text = "1\n2\n3\n4\nx + y\n6\n7\n8\n9\n";
  EXPECT_EQ(unified_diff(text, mutant_at(text, "+", "-")),
            "--- a/src/a.cpp\n+++ b/src/a.cpp\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-x + y\n+x - y\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, FileEdgesAndMissingFinalNewline) {
  const std::string text = "a * b\nend";
  EXPECT_EQ(unified_diff(text, mutant_at(text, "*", "/")),
            "--- a/src/a.cpp\n+++ b/src/a.cpp\n@@ -1,2 +1,2 @@\n-a * b\n+a / b\n end\n\\ No newline at end of file\n");
  const std::string deleted = "keep\n  drop();\nkeep\n";
  EXPECT_EQ(unified_diff(deleted, mutant_at(deleted, "  drop();\n", "")),
            "--- a/src/a.cpp\n+++ b/src/a.cpp\n@@ -1,3 +1,2 @@\n keep\n-  drop();\n keep\n");
}

TEST(UnifiedDiff, RefusesAFileThatChanged) {
  Mutant m = mutant_at("x + y\n", "+", "-");
  EXPECT_THROW(unified_diff("x * y\n", m), Error);
}

TEST(Manifest, RoundTripsEveryField) {
  Mutant m = mutant_at("a \"quoted\"\n+ b", "\"quoted\"\n+", "\"q\"\n-");
  m.end_line = 6;
  m.bug_type = BugType::numerics;
  const std::string line = manifest_line(m);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["lines"], nlohmann::json::array({5, 6}));
  EXPECT_EQ(j["group"], "dl");
  EXPECT_EQ(j["patch"], m.id + ".patch");
  const Mutant back = parse_manifest_line(line, "m.jsonl", 1);
  EXPECT_EQ(back.id, m.id);
  EXPECT_EQ(back.file, m.file);
  EXPECT_EQ(back.line, m.line);
  EXPECT_EQ(back.end_line, m.end_line);
  EXPECT_EQ(back.column, m.column);
  EXPECT_EQ(back.offset, m.offset);
  EXPECT_EQ(back.original, m.original);
  EXPECT_EQ(back.replacement, m.replacement);
  EXPECT_EQ(back.op, m.op);
  EXPECT_EQ(back.bug_type, m.bug_type);
  EXPECT_EQ(back.function, m.function);
}

TEST(Manifest, MalformedLinesNameFileAndLine) {
  try {
    parse_manifest_line("{\"id\": 3}", "m.jsonl", 7);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("m.jsonl:7: ", 0), 0u) << e.what();
  }
  EXPECT_THROW(parse_manifest_line("not json", "m.jsonl", 1), Error);
}

// Found by fuzz/mutant_manifest_fuzzer: "offset": 3e36 reached nlohmann's get<uint64_t>(), a
// cast of a double past 2^64 (undefined behaviour); "line": 4294967297 became line 1.
TEST(Manifest, NumbersMustBeWholeAndFitTheirField) {
  const std::string head = R"({"bug_type":"tensor","column":9,"end_line":13,"file":"a.cpp","function":"f",)"
                           R"("id":"m1","operator":"op","original":"x","replacement":"y",)";
  EXPECT_EQ(parse_manifest_line(head + R"("line":12,"offset":301})", "m.jsonl", 1).offset, 301u);
  const auto message = [&](const std::string& tail) {
    try {
      parse_manifest_line(head + tail, "m.jsonl", 2);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(R"("line":12,"offset":3011111111111111111111111111111111111})"),
            "m.jsonl:2: \"offset\" is not a whole number in 0..18446744073709551615");
  EXPECT_EQ(message(R"("line":4294967297,"offset":1})"), "m.jsonl:2: \"line\" is not a whole number in 0..4294967295");
  EXPECT_EQ(message(R"("line":-1,"offset":1})"), "m.jsonl:2: \"line\" is not a whole number in 0..4294967295");
  EXPECT_EQ(message(R"("line":1.5,"offset":1})"), "m.jsonl:2: \"line\" is not a whole number in 0..4294967295");
}

// Found by fuzz/mutant_manifest_fuzzer: "line": 3, "end_line": 11111114 was read, and
// writing it back listed 11 million lines (a 15 s timeout).
TEST(Manifest, OneMutantSpansAtMostOneHundredThousandLines) {
  std::string line = R"({"bug_type":"traditional","column":3,"end_line":11111114,"file":"a.cpp","function":"f",)"
                     R"("id":"m4","line":3,"offset":20,"operator":"aor","original":"+","replacement":"-"})";
  try {
    parse_manifest_line(line, "m.jsonl", 3);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "m.jsonl:3: \"line\" 3 to \"end_line\" 11111114 is more than the limit of 100000 lines for one mutant");
  }
  line.replace(line.find("11111114"), 8, "100002");
  EXPECT_EQ(parse_manifest_line(line, "m.jsonl", 3).end_line, 100002u);
}

TEST(WriteMutants, PatchesApplyWithGitApply) {
  Project p;
  const std::string text = "int f(int a) {\n  return a + 1;\n}\n";
  p.add("src/a.cpp", text);
  const auto mutants = p.mutants({Operator::arithmetic_replace, Operator::constant_replace});
  ASSERT_EQ(mutants.size(), 3u);
  const fs::path out = p.root() / "out";
  write_mutants(out, p.root(), mutants);
  EXPECT_EQ(read_manifest(out / kManifestFileName).size(), 3u);
  for (const auto& m : mutants) {
    std::string log;
    EXPECT_EQ(run("cd " + p.root().string() + " && git apply --check " + (out / (m.id + ".patch")).string(), &log), 0)
        << log;
  }
}

}  // namespace
}  // namespace dlfl::mutate::testing
