// Substituted values in /bin/sh command lines: a test name is one word, never code,
// whether the template leaves its placeholder bare, puts it in quotes, or inside a command
// substitution, backquotes or a parameter expansion; paths (quote_for_shell) likewise in
// the quotings dlfl's own templates use.
#include "dlfl/collect/shell_quoting.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "dlfl/collect/process.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "../support/shell_output.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// Runs a test command as collection does: /bin/sh -c TEXT with its environment.
std::string run_test_command(const ShellCommand& command) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command.text};
  spec.env_set = command.env;
  spec.timeout = std::chrono::seconds(20);
  return run_process(spec).out;
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
    return {"$(" + touch + ")",
            "`" + touch + "`",
            "'; " + touch + "; '",
            "\"; " + touch + "; \"",
            "\"$(" + touch + ")\"",
            "'$(" + touch + ")'",
            ")\"; " + touch + "; echo \"(",
            "}; " + touch + "; {",
            "a b\tc\nd",
            "back\\slash\\",
            "$HOME ${HOME}",
            "it's \"quoted\"",
            "*",
            "'",
            "\"",
            "\\",
            "-n",
            ""};
  }
  fs::path marker_;
};

// printf prints its one argument between brackets: the word the shell made of the value.
TEST_P(ShellQuotingTemplates, EveryTemplateQuotingPassesTheNameAsOneWordAndRunsNothing) {
  const std::string template_ = GetParam();
  for (const std::string& name : hostile()) {
    const ShellCommand command = instantiate_command(template_, name);
    if (name.size() > 3) {
      EXPECT_EQ(command.text.find(name), std::string::npos) << "the name is spliced into the command text: " << command.text;
    }
    const std::string expected = template_.find("x{}y") != std::string::npos ? "[x" + name + "y]" : "[" + name + "]";
    EXPECT_EQ(run_test_command(command), expected) << template_ << " with " << name << ": " << command.text;
    EXPECT_FALSE(fs::exists(marker_)) << template_ << " ran code from " << name << ": " << command.text;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Templates, ShellQuotingTemplates,
    ::testing::Values("printf '[%s]' {}", "printf '[%s]' '{}'", "printf '[%s]' \"{}\"", "printf '[%s]' \"x{}y\"",
                      "printf '[%s]' 'x{}y'", "printf '[%s]' x{}y", "printf \"[%s]\" \"{}\"",
                      // Substitutions open a new level of quoting inside a word.
                      "v=\"$(printf '%s.' {})\"; printf '[%s]' \"${v%.}\"",
                      "v=\"$(printf '%s.' \"{}\")\"; printf '[%s]' \"${v%.}\"",
                      "v=$(printf '%s.' {}); printf '[%s]' \"${v%.}\"",
                      "v=\"`printf '%s.' {}`\"; printf '[%s]' \"${v%.}\"",
                      "v=\"$(printf '%s.' \"$(printf '%s' {})\")\"; printf '[%s]' \"${v%.}\"",
                      "printf '[%s]' \"${DLFL_UNSET_VARIABLE:-{}}\"",
                      "printf '[%s]' ${DLFL_UNSET_VARIABLE:-{}}",
                      "sh -c 'printf \"[%s]\" \"$1\"' sh {}",
                      "case {} in *) printf '[%s]' {};; esac"));

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

TEST(ShellQuotingTracker, SubstitutionsOpenANewLevelOfQuoting) {
  ShellQuoteTracker t;
  t.feed("\"$(");
  EXPECT_EQ(t.state(), ShellQuoting::none);  // "$( a placeholder here is unquoted
  t.feed("x '");
  EXPECT_EQ(t.state(), ShellQuoting::single);
  t.feed("')");
  EXPECT_EQ(t.state(), ShellQuoting::double_);  // back in the double quotes
  t.feed("`");
  EXPECT_EQ(t.state(), ShellQuoting::none);
  t.feed("`${x:-");
  EXPECT_EQ(t.state(), ShellQuoting::double_);  // the word of "${x:-...}" is double-quoted
  t.feed("'}\"");                                // a plain quote there
  EXPECT_EQ(t.state(), ShellQuoting::none);
  t.feed("$(( 1 + (2) ");
  EXPECT_TRUE(t.in_arithmetic());
  t.feed("))");
  EXPECT_FALSE(t.in_arithmetic());
  EXPECT_EQ(t.state(), ShellQuoting::none);
  EXPECT_FALSE(t.too_deep());
}

TEST(ShellQuotingTracker, PlaceholdersAfterABackslashOrADollarOrInArithmeticOrTooDeepAreRefused) {
  auto error_of = [](const std::string& template_) -> std::string {
    try {
      (void)instantiate_command(template_, "x");
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(error_of("prog \\{}"), HasSubstr("follows a backslash"));
  // `"$"` before a path `(x...`: `$(` would run the value (found by the fuzz harness).
  EXPECT_THAT(error_of("echo \"${}\""), HasSubstr("follows a '$'"));
  EXPECT_THAT(error_of("echo ${}"), HasSubstr("follows a '$'"));
  ShellQuoteTracker after_dollar;
  after_dollar.feed("\"$");
  EXPECT_THROW((void)quote_for_shell("(touch x)", after_dollar, "{p}"), Error);
  EXPECT_EQ(error_of("echo '$'{} $ {}"), "no error");  // a quoted '$', or one followed by a space
  EXPECT_THAT(error_of("echo $(( {} + 1 ))"), HasSubstr("$((...))"));
  EXPECT_THAT(error_of("echo $(( $(echo {}) ))"), HasSubstr("$((...))"));
  std::string deep;
  for (int i = 0; i < ShellQuoteTracker::kMaxDepth + 2; ++i) deep += "$(";
  EXPECT_THAT(error_of(deep + "{}"), HasSubstr("deep"));
  // One level short of the limit: the reference's own quote and ${ would pass it.
  EXPECT_THAT(error_of(std::string(ShellQuoteTracker::kMaxDepth - 1, '(') + "{}"), HasSubstr("deep"));
  EXPECT_EQ(error_of(std::string(ShellQuoteTracker::kMaxDepth - 2, '(') + "{}"), "no error");
}

TEST(ShellQuoting, PathsAreQuotedForTheirQuoting) {
  ShellQuoteTracker none, single, double_;
  single.feed("'");
  double_.feed("\"");
  EXPECT_EQ(quote_for_shell("it's", none, "{p}"), "'it'\\''s'");
  EXPECT_EQ(quote_for_shell("it's", single, "{p}"), "it'\\''s");
  EXPECT_EQ(quote_for_shell("a$b\"", double_, "{p}"), "a\\$b\\\"");
  EXPECT_EQ(reference_for_shell("V", none, "{}"), "\"${V}\"");
  EXPECT_EQ(reference_for_shell("V", single, "{}"), "'\"${V}\"'");
  EXPECT_EQ(reference_for_shell("V", double_, "{}"), "${V}");
}

}  // namespace
}  // namespace dlfl::collect
