// Tests for the LLM context formats (llm-json, llm-markdown): snippets, signatures, test
// code, ties, the size bound, escaping, and reading only inside the source root.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "dlfl/error.h"
#include "dlfl/report/ranking_writer.h"
#include "../support/test_files.h"

namespace dlfl::io {
namespace {

using dlfl::testing::TempDir;
using dlfl::testing::write_text;

constexpr const char* kOps =
    "#include \"ops.h\"\n"          // 1
    "\n"                            // 2
    "// Adds two numbers.\n"        // 3
    "int\n"                         // 4
    "add(int a, int b) {\n"         // 5
    "  int sum = a + b;\n"          // 6
    "  return sum - 1;  // ```\n"   // 7  the fault, and a fence in a comment
    "}\n"                           // 8
    "\n"                            // 9
    "int twice(int a) {\n"          // 10
    "  return add(a, a);\n"         // 11
    "}\n";                          // 12

constexpr const char* kOpsTest =
    "#include <gtest/gtest.h>\n"                       // 1
    "TEST(OpsTest, Adds) {\n"                          // 2
    "  EXPECT_EQ(add(1, 2), 3) << \"}\";\n"            // 3
    "}\n"                                              // 4
    "TEST_F(OpsFixture, Twice) { EXPECT_EQ(twice(2), 4); }\n";  // 5

class LlmContextWriters : public ::testing::Test {
 protected:
  void SetUp() override {
    write_text(dir_ / "root/src/ops.cpp", kOps);
    write_text(dir_ / "root/tests/ops_test.cpp", kOpsTest);
    write_text(dir_ / "root/tests/test_ops.py", "import ops\n\n\ndef test_add(x):\n    assert ops.add(x, x) == 2 * x\n\n\ndef other():\n    pass\n");
    write_text(dir_ / "secret.txt", "TOP SECRET\n");
    SpectrumBuilder b;
    b.add_element("src/ops.cpp", 7, 7, "add(int, int)");         // 0: the fault
    b.add_element("src/ops.cpp", 6, 6, "add(int, int)");         // 1
    b.add_element("src/ops.cpp", 11, 11, "twice(int)");          // 2
    b.add_element("tests/ops_test.cpp", 3, 3, "OpsTest_Adds_Test::TestBody()");  // 3
    b.add_element("../secret.txt", 1, 1, "s");                   // 4
    b.add_element((dir_ / "secret.txt").string(), 1, 1, "s");    // 5
    b.add_extrinsic("device=cuda");                              // 6
    TestCase adds = TestCase::fail("OpsTest.Adds");
    adds.message = "Expected equality of these values:\n  add(1, 2)\n    Which is: 2\n```\n# Injected heading";
    b.add_test(std::move(adds), {0, 1, 3, 4, 5, 6});
    TestCase python = TestCase::fail("tests/test_ops.py::test_add[2]");
    python.message = "assert 3 == 4";
    b.add_test(std::move(python), {0, 1});
    b.add_test(TestCase::pass("OpsFixture.Twice"), {1, 2});
    spectrum_ = std::move(b).finish();
    counts_ = compute_counts(spectrum_);
    Eigen::ArrayXd s(7);
    s << 1.0, 0.8, 0.1, 0.8, 0.8, 0.8, 0.2;
    ranked_ = rank(s, spectrum_.tie_break_keys());
  }

  std::string write(std::string_view format, std::size_t max_bytes = 0, std::size_t top = 0) {
    const std::span<const RankedElement> shown =
        top == 0 ? std::span<const RankedElement>(ranked_) : std::span<const RankedElement>(ranked_).subspan(0, top);
    const FormulaRanking one[] = {{"ochiai", shown}};
    RankingWriteOptions options;
    options.counts = &counts_;
    options.source_root = dir_ / "root";
    options.granularity = "line";
    options.max_bytes = max_bytes;
    std::ostringstream out;
    make_ranking_writer(format)->write(out, spectrum_, one, options);
    return out.str();
  }

  TempDir dir_{"llm"};
  Spectrum spectrum_;
  Counts counts_;
  std::vector<RankedElement> ranked_;
};

TEST_F(LlmContextWriters, JsonHoldsElementsWithSnippetsSignaturesTiesAndCounts) {
  const auto doc = nlohmann::json::parse(write("llm-json"));
  EXPECT_EQ(doc["format"], "dlfl-llm-context");
  EXPECT_EQ(doc["formula"], "ochiai");
  EXPECT_EQ(doc["elements_total"], 7);
  EXPECT_EQ(doc["failing_tests_total"], 2);
  EXPECT_TRUE(doc["cut"].is_null());
  const auto& top = doc["elements"][0];
  EXPECT_EQ(top["element"], "src/ops.cpp#add(int, int):7");
  EXPECT_EQ(top["rank"], 1);
  EXPECT_EQ(top["tied_elements"], 1);
  EXPECT_EQ(top["ef"], 2);
  EXPECT_EQ(top["ep"], 0);
  EXPECT_EQ(top["signature"]["line"], 4);  // the return type's line above the name
  EXPECT_EQ(top["signature"]["text"], "int\nadd(int a, int b)");
  EXPECT_EQ(top["snippet"]["first_line"], 4);
  EXPECT_EQ(top["snippet"]["last_line"], 10);
  EXPECT_EQ(top["snippet"]["lines"][3], "  return sum - 1;  // ```");
  // Positions 2..5 are one tie of four.
  const auto& tied = doc["elements"][1];
  EXPECT_EQ(tied["rank_best"], 2);
  EXPECT_EQ(tied["rank_worst"], 5);
  EXPECT_EQ(tied["rank"], 3.5);
  EXPECT_EQ(tied["tied_elements"], 4);
  const auto& extrinsic = doc["elements"][5];
  EXPECT_EQ(extrinsic["kind"], "extrinsic");
  EXPECT_TRUE(extrinsic["snippet"].is_null());
  EXPECT_FALSE(extrinsic["source_note"].is_null());
}

TEST_F(LlmContextWriters, FailingTestsCarryTheirMessagesAndCode) {
  const auto doc = nlohmann::json::parse(write("llm-json"));
  ASSERT_EQ(doc["failing_tests"].size(), 2u);  // the passing test is not listed
  const auto& gtest = doc["failing_tests"][0];
  EXPECT_EQ(gtest["name"], "OpsTest.Adds");
  EXPECT_EQ(gtest["outcome"], "failed");
  EXPECT_NE(gtest["message"].get<std::string>().find("Which is: 2"), std::string::npos);
  EXPECT_EQ(gtest["source"]["file"], "tests/ops_test.cpp");
  EXPECT_EQ(gtest["source"]["first_line"], 2);
  EXPECT_EQ(gtest["source"]["last_line"], 4);  // the "}" in a string literal does not end it
  const auto& python = doc["failing_tests"][1];
  EXPECT_EQ(python["source"]["file"], "tests/test_ops.py");
  EXPECT_EQ(python["source"]["first_line"], 4);
  EXPECT_EQ(python["source"]["last_line"], 5);
  EXPECT_EQ(python["source"]["lines"][0], "def test_add(x):");
}

TEST_F(LlmContextWriters, NothingOutsideTheSourceRootIsRead) {
  // A link inside the root that leads out of it is refused as well.
  std::filesystem::create_symlink(dir_ / "secret.txt", dir_ / "root/src/link.cpp");
  SpectrumBuilder b;
  b.add_element("src/link.cpp", 1, 1, "f");
  b.add_test(TestCase::fail("t"), {0});
  const Spectrum linked = std::move(b).finish();
  const Counts counts = compute_counts(linked);
  const auto ranked = rank(Eigen::ArrayXd::Ones(1), linked.tie_break_keys());
  const FormulaRanking one[] = {{"ochiai", ranked}};
  RankingWriteOptions options{.counts = &counts, .source_root = dir_ / "root"};
  std::ostringstream linked_out;
  make_ranking_writer("llm-markdown")->write(linked_out, linked, one, options);
  EXPECT_EQ(linked_out.str().find("TOP SECRET"), std::string::npos) << linked_out.str();
  EXPECT_NE(linked_out.str().find("outside the source root"), std::string::npos) << linked_out.str();

  for (const auto format : {"llm-json", "llm-markdown"}) {
    const std::string text = write(format);
    EXPECT_EQ(text.find("TOP SECRET"), std::string::npos) << format;
  }
  const auto doc = nlohmann::json::parse(write("llm-json"));
  for (const auto& e : doc["elements"])
    if (e["file"].get<std::string>().ends_with("secret.txt")) {
      EXPECT_TRUE(e["snippet"].is_null());
      EXPECT_NE(e["source_note"].get<std::string>().find("outside the source root"), std::string::npos) << e;
    }
}

// The lines of `markdown` outside fenced code blocks (CommonMark: a fence closes only with
// at least as many backticks as opened it, and nothing after them).
std::vector<std::string> lines_outside_fences(const std::string& markdown) {
  std::vector<std::string> outside;
  std::istringstream in(markdown);
  std::size_t open = 0;
  for (std::string line; std::getline(in, line);) {
    const std::size_t ticks = line.find_first_not_of('`') == std::string::npos ? line.size() : line.find_first_not_of('`');
    if (open == 0 && ticks >= 3) {
      open = ticks;
    } else if (open > 0 && ticks >= open && ticks == line.size()) {
      open = 0;
    } else if (open == 0) {
      outside.push_back(line);
    }
  }
  EXPECT_EQ(open, 0u) << "a fence is left open";
  return outside;
}

TEST_F(LlmContextWriters, MarkdownFencesHoldBackticksOfTheSourceAndMessages) {
  const std::string md = write("llm-markdown");
  for (const auto& line : lines_outside_fences(md)) {
    EXPECT_EQ(line.find("# Injected"), std::string::npos) << "escaped its fence: " << line;
    EXPECT_EQ(line.find("return sum"), std::string::npos) << "source outside a fence: " << line;
  }
  EXPECT_NE(md.find("# Injected heading"), std::string::npos);  // quoted, inside a fence
  EXPECT_NE(md.find(">  7 |   return sum - 1;  // ```"), std::string::npos) << md;
  EXPECT_NE(md.find("tied at positions 2..5"), std::string::npos) << md;
  EXPECT_NE(md.find("TEST(OpsTest, Adds)"), std::string::npos) << md;
}

TEST_F(LlmContextWriters, MaxBytesLeavesOutTheLowestRankedFirstAndSaysSo) {
  const std::string full = write("llm-json");
  const std::size_t bound = full.size() - 300;
  const std::string cut = write("llm-json", bound);
  EXPECT_LE(cut.size(), bound);
  const auto doc = nlohmann::json::parse(cut);
  const auto shown = doc["elements_shown"].get<std::size_t>();
  ASSERT_GE(shown, 1u);
  EXPECT_LT(shown, 7u);
  EXPECT_EQ(doc["elements"].size(), shown);
  EXPECT_EQ(doc["cut"]["elements_left_out"], 7 - shown);
  EXPECT_EQ(doc["elements"][0]["rank"], 1);  // the top stays
  EXPECT_NE(doc["cut"]["note"].get<std::string>().find("lowest-ranked"), std::string::npos);
  EXPECT_EQ(doc["failing_tests"].size(), 2u);  // tests go only after the elements

  const std::string md_full = write("llm-markdown");
  const std::string md = write("llm-markdown", md_full.size() / 2);
  EXPECT_LE(md.size(), md_full.size() / 2);
  EXPECT_NE(md.find("Left out to stay within"), std::string::npos) << md;
  lines_outside_fences(md);  // still well formed
}

TEST_F(LlmContextWriters, ABoundBelowTheFrameIsAnError) {
  EXPECT_THROW(write("llm-json", 100), Error);
  EXPECT_THROW(write("llm-markdown", 100), Error);
}

TEST_F(LlmContextWriters, OutputIsDeterministic) {
  EXPECT_EQ(write("llm-json"), write("llm-json"));
  EXPECT_EQ(write("llm-markdown", 3000), write("llm-markdown", 3000));
}

TEST_F(LlmContextWriters, ATopThatSplitsATieSaysSo) {
  const auto doc = nlohmann::json::parse(write("llm-json", 0, 2));
  EXPECT_EQ(doc["elements_shown"], 2);
  EXPECT_TRUE(doc["last_tie_continues"]);
  EXPECT_NE(write("llm-markdown", 0, 2).find("The last tie goes on past them, to position 5."), std::string::npos);
}

TEST_F(LlmContextWriters, OneFormulaOnly) {
  const FormulaRanking two[] = {{"ochiai", ranked_}, {"dstar:2", ranked_}};
  RankingWriteOptions options{.counts = &counts_};
  std::ostringstream out;
  EXPECT_THROW(make_ranking_writer("llm-json")->write(out, spectrum_, two, options), Error);
}

}  // namespace
}  // namespace dlfl::io
