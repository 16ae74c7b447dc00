// Tests for the JSON nesting bound (json_depth.h): brackets counted outside strings only,
// the error naming the line of the bracket past the bound.
#include "dlfl/files/json_depth.h"

#include <gtest/gtest.h>

#include <string>

#include "dlfl/error.h"

namespace dlfl::io {
namespace {

std::string error_of(std::string_view text, std::size_t first_line = 1, std::size_t max_depth = kMaxJsonDepth) {
  try {
    check_json_depth(text, "f.json", first_line, max_depth);
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

TEST(JsonDepth, NestingUpToTheBoundPassesAndOneMoreLevelIsRefused) {
  const std::string deepest = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_EQ(error_of(deepest), "(no error)");
  EXPECT_EQ(error_of("[" + deepest + "]"), "f.json:1: JSON nested deeper than 64 levels");
  EXPECT_EQ(error_of(std::string(10 << 20, '[')), "f.json:1: JSON nested deeper than 64 levels");
  // Siblings do not add up: depth is what is open at once.
  std::string wide;
  for (int i = 0; i < 1000; ++i) wide += "{\"a\": [[1]]},";
  EXPECT_EQ(error_of("[" + wide + "1]"), "(no error)");
}

TEST(JsonDepth, BracketsInsideStringsDoNotCount) {
  const std::string brackets(1000, '[');
  EXPECT_EQ(error_of("{\"name\": \"" + brackets + "\"}"), "(no error)");
  // An escaped quote does not end the string; an escaped backslash before one does.
  EXPECT_EQ(error_of("[\"\\\"" + brackets + "\"]"), "(no error)");
  EXPECT_EQ(error_of("[\"\\\\\"" + brackets + "]", 1, 3), "f.json:1: JSON nested deeper than 3 levels");
}

TEST(JsonDepth, TheErrorNamesTheLineOfTheBracketPastTheBound) {
  EXPECT_EQ(error_of("{\n\"a\":\n[\n[", 1, 2), "f.json:4: JSON nested deeper than 2 levels");
  EXPECT_EQ(error_of("[[[", 7, 2), "f.json:7: JSON nested deeper than 2 levels");  // a line of a JSON Lines file
  EXPECT_EQ(error_of("]]]]{}", 1, 1), "(no error)");  // unbalanced closers are the parser's to refuse
}

}  // namespace
}  // namespace dlfl::io
