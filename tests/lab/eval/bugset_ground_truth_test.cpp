// Tests for ground-truth lists: every line form, comments, function names with "::",
// drive letters, backslashes, errors with file:line, and a write/parse round trip.
#include "dlfl/lab/eval/ground_truth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

using ::testing::ElementsAre;

TEST(BugsetGroundTruthList, ParsesEveryForm) {
  const std::string text =
      "# faults of bug 7\n"
      "src/conv.cc:42\n"
      "  src/conv.cc : tensorflow::Conv2DOp::Compute  \r\n"
      "\n"
      "python\\layers\\io.py\n"
      "src/k.cu:12:k::launch\n"
      "C:/work/a.cpp:3\n"
      "   # indented comment\n"
      "module.py:Model.forward\n";
  EXPECT_THAT(parse_ground_truth(text, "gt.txt"),
              ElementsAre(GroundTruthItem{"src/conv.cc", 42, ""},
                          GroundTruthItem{"src/conv.cc", 0, "tensorflow::Conv2DOp::Compute"},
                          GroundTruthItem{"python/layers/io.py", 0, ""},
                          GroundTruthItem{"src/k.cu", 12, "k::launch"},
                          GroundTruthItem{"C:/work/a.cpp", 3, ""},
                          GroundTruthItem{"module.py", 0, "Model.forward"}));
}

std::string error_of(const std::string& text) {
  try {
    parse_ground_truth(text, "gt.txt");
    return {};
  } catch (const Error& error) {
    return error.what();
  }
}

TEST(BugsetGroundTruthList, ErrorsNameFileAndLine) {
  EXPECT_EQ(error_of("a.cc:1\n:12\n"), "gt.txt:2: empty file name");
  EXPECT_EQ(error_of("a.cc:0"), "gt.txt:1: line number \"0\" is not in 1..4294967295");
  EXPECT_EQ(error_of("a.cc:99999999999"), "gt.txt:1: line number \"99999999999\" is not in 1..4294967295");
  EXPECT_EQ(error_of("a.cc:12x"), "gt.txt:1: \"12x\" is not a line number");
  EXPECT_EQ(error_of("# c\na.cc:"), "gt.txt:2: nothing after ':' (expected a line or a function)");
}

TEST(BugsetGroundTruthList, WriteThenParseGivesTheItemsBack) {
  const std::vector<GroundTruthItem> items = {{"a.cc", 0, ""}, {"a.cc", 7, ""}, {"b.cu", 0, "ns::k"},
                                              {"b.cu", 3, "ns::k"}};
  std::ostringstream out;
  write_ground_truth(out, items);
  EXPECT_EQ(out.str(), "a.cc\na.cc:7\nb.cu:ns::k\nb.cu:3:ns::k\n");
  EXPECT_EQ(parse_ground_truth(out.str(), "x"), items);
}

}  // namespace
}  // namespace dlfl::eval
