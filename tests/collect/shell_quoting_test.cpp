// Substituted values in /bin/sh command lines: a test name or a path is one word, never
// code, whether the template leaves its placeholder bare or puts it in quotes.
#include "dlfl/collect/shell_quoting.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "../support/shell_output.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

std::string run_shell(const std::string& command) {
  return dlfl::testing::shell_output("/bin/sh -c " + shell_quote(command));
}

class ShellQuotingTemplates : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    marker_ = fs::temp_directory_path() / ("dlfl-shell-quoting-" + std::to_string(::getpid()));
    fs::remove(marker_);
  }
  void TearDown() override { fs::remove(marker_); }
  // Names that would run `touch MARKER` if they reached the shell as code, in each of
  // the ways a quote can be closed or a command substituted.
  std::vector<std::string> hostile() const {
    const std::string touch = "touch " + marker_.string();
    return {"$(" + touch + ")", "`" + touch + "`", "'; " + touch + "; '", "\"; " + touch + "; \"",
            "a b\tc\nd", "back\\slash\\", "$HOME ${HOME}", "it's \"quoted\"", "'", "\"", "\\", "-n", ""};
  }
  fs::path marker_;
};

// printf prints its one argument between brackets: the word the shell made of the value.
TEST_P(ShellQuotingTemplates, EveryTemplateQuotingPassesTheNameAsOneWord) {
  const std::string template_ = GetParam();
  for (const std::string& name : hostile()) {
    const std::string command = instantiate_command(template_, name);
    const std::string expected = template_.find("x{}y") != std::string::npos ? "[x" + name + "y]" : "[" + name + "]";
    EXPECT_EQ(run_shell(command), expected) << template_ << " with " << name << ": " << command;
    EXPECT_FALSE(fs::exists(marker_)) << template_ << " ran code from " << name << ": " << command;
  }
}

INSTANTIATE_TEST_SUITE_P(Templates, ShellQuotingTemplates,
                         ::testing::Values("printf '[%s]' {}", "printf '[%s]' '{}'", "printf '[%s]' \"{}\"",
                                           "printf '[%s]' \"x{}y\"", "printf '[%s]' 'x{}y'",
                                           "printf '[%s]' x{}y", "printf \"[%s]\" \"{}\""));

TEST(ShellQuotingTracker, FollowsQuotesAndEscapes) {
  ShellQuoteTracker t;
  t.feed("a 'b");
  EXPECT_EQ(t.state(), ShellQuoting::single);
  t.feed("\\'");  // a backslash means nothing in single quotes: the quote closes
  EXPECT_EQ(t.state(), ShellQuoting::none);
  t.feed("\"x\\\"");  // an escaped quote inside double quotes does not close them
  EXPECT_EQ(t.state(), ShellQuoting::double_);
  t.feed("'\"");
  EXPECT_EQ(t.state(), ShellQuoting::none);
  t.feed("\\'");  // an escaped quote outside opens nothing
  EXPECT_EQ(t.state(), ShellQuoting::none);
  t.feed("\\");
  EXPECT_TRUE(t.escaped());
}

TEST(ShellQuotingTracker, APlaceholderAfterABackslashIsRefused) {
  try {
    (void)instantiate_command("prog \\{}", "x");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("follows a backslash"));
  }
}

}  // namespace
}  // namespace dlfl::collect
