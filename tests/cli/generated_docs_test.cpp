// The man pages and shell completions the build generates with `dlfl --generate-man-pages`
// and `--generate-completion` (tools/dlfl/generated_docs.h): a page for every command
// --help lists, rendered by man(1) without a warning and naming every option --help
// names; completion scripts that parse, and bash completion that offers dlfl's real
// commands, options, formulas and formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "../support/have_program.h"
#include "../support/shell_output.h"
#include "cli_runner.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kDocs = DLFL_DOCS_DIR;

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The subcommands `dlfl ARGS --help` lists: lines "  name    description".
std::vector<std::string> help_subcommands(const std::string& args) {
  const RunResult r = run_dlfl(args + " --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> names;
  const std::regex entry("^  ([a-z][a-z0-9-]*)  +\\S.*$");
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_match(line, m, entry)) names.push_back(m[1]);
  return names;
}

// The long options `dlfl ARGS --help` lists.
std::set<std::string> help_long_options(const std::string& args) {
  const RunResult r = run_dlfl(args + " --help");
  std::set<std::string> names;
  const std::regex option("^  (?:-[A-Za-z0-9], ?)?(--[a-z0-9][a-z0-9-]*)");
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_search(line, m, option)) names.insert(m[1]);
  return names;
}

// Every command path (as `dlfl` arguments): "", "rank", ..., "bugset reproduce".
std::vector<std::string> all_command_paths() {
  std::vector<std::string> paths{""};
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (const auto& sub : help_subcommands(paths[i])) paths.push_back(paths[i].empty() ? sub : paths[i] + " " + sub);
  return paths;
}

std::string page_of(std::string path) {
  std::replace(path.begin(), path.end(), ' ', '-');
  return path.empty() ? "dlfl" : "dlfl-" + path;
}

// What bash completion offers for the words typed (the last one being completed).
std::string bash_offers(const std::vector<std::string>& words) {
  std::string array;
  for (const auto& w : words) array += " " + quoted(w);
  const std::string script = "source " + quoted((kDocs / "completion" / "dlfl").string()) + "; COMP_WORDS=(" + array +
                             "); COMP_CWORD=" + std::to_string(words.size() - 1) +
                             "; _dlfl; printf '%s\\n' \"${COMPREPLY[@]}\"";
  return shell_output("bash -c " + quoted(script) + " 2>&1");
}

std::set<std::string> lines_of(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.insert(line);
  return out;
}

TEST(GeneratedDocs, EveryCommandHasAPageManRendersWithoutWarnings) {
  if (!have_program("man")) GTEST_SKIP() << "man (man-db) is not installed";
  const auto paths = all_command_paths();
  ASSERT_GT(paths.size(), 10u);
  EXPECT_NE(std::find(paths.begin(), paths.end(), "bugset reproduce"), paths.end());
  for (const auto& path : paths) {
    const fs::path page = kDocs / "man" / (page_of(path) + ".1");
    ASSERT_TRUE(fs::exists(page)) << "no man page for `dlfl " << path << "`: " << page;
    // --warnings: groff's warnings (bad requests, lines that cannot be broken, ...) on stderr.
    const ShellRun warnings =
        capture_shell("MANWIDTH=80 man --warnings -l " + quoted(page.string()) + " 2>&1 >/dev/null");
    EXPECT_EQ(warnings.status, 0) << page;
    EXPECT_EQ(warnings.out, "") << page;
    // man-db leaves out the bold and underline a terminal would get when writing to a pipe.
    const std::string rendered = shell_output("MANWIDTH=80 man -l " + quoted(page.string()) + " 2>/dev/null");
    EXPECT_NE(rendered.find("SYNOPSIS"), std::string::npos) << page;
    for (const auto& option : help_long_options(path))
      EXPECT_NE(rendered.find(option), std::string::npos) << "`dlfl " << path << " --help` lists " << option
                                                           << " but " << page << " does not";
  }
  // No page for a command that does not exist (a stale page of a removed command).
  std::set<std::string> expected;
  for (const auto& path : paths) expected.insert(page_of(path) + ".1");
  for (const auto& entry : fs::directory_iterator(kDocs / "man"))
    EXPECT_TRUE(expected.count(entry.path().filename().string())) << "stale page " << entry.path();
}

TEST(GeneratedDocs, RankPageShowsTheFormatChoicesAndGroups) {
  const std::string page = slurp(kDocs / "man" / "dlfl-rank.1");
  EXPECT_NE(page.find(".TH \"DLFL\\-RANK\" 1"), std::string::npos);
  EXPECT_NE(page.find("dlfl\\-rank \\- Score every element"), std::string::npos);
  EXPECT_NE(page.find("\\fB\\-f\\fR, \\fB\\-\\-formula\\fR"), std::string::npos);
  EXPECT_NE(page.find("sarif"), std::string::npos);
  EXPECT_NE(page.find(".BR dlfl (1)"), std::string::npos);
  const std::string collect = slurp(kDocs / "man" / "dlfl-collect.1");
  EXPECT_NE(collect.find(".SS Coverage"), std::string::npos);  // an option group of --help
  const std::string root = slurp(kDocs / "man" / "dlfl.1");
  EXPECT_NE(root.find(".SS Localize"), std::string::npos);
  EXPECT_NE(root.find("See \\fBdlfl\\-rank\\fR(1)."), std::string::npos);
}

TEST(GeneratedDocs, CompletionScriptsParse) {
  const fs::path bash = kDocs / "completion" / "dlfl", zsh = kDocs / "completion" / "_dlfl";
  ASSERT_TRUE(fs::exists(bash));
  ASSERT_TRUE(fs::exists(zsh));
  const ShellRun b = capture_shell("bash -n " + quoted(bash.string()) + " 2>&1");
  EXPECT_EQ(b.status, 0) << b.out;
  EXPECT_EQ(b.out, "");
  EXPECT_EQ(slurp(zsh).rfind("#compdef dlfl\n", 0), 0u);
  if (!have_program("zsh")) GTEST_SKIP() << "zsh is not installed (scripts/install-deps.sh installs it): zsh -n skipped";
  const ShellRun z = capture_shell("zsh -n " + quoted(zsh.string()) + " 2>&1");
  EXPECT_EQ(z.status, 0) << z.out;
  EXPECT_EQ(z.out, "");
}

TEST(GeneratedDocs, ZshCompletesFormulaNamesAndSubcommands) {
  const std::string zsh = slurp(kDocs / "completion" / "_dlfl");
  EXPECT_NE(zsh.find("_dlfl_bugset_reproduce() {"), std::string::npos);
  EXPECT_NE(zsh.find("'*'{-f,--formula}'["), std::string::npos);
  EXPECT_NE(zsh.find(":(ochiai tarantula"), std::string::npos);
  EXPECT_NE(zsh.find("'rank:Score every element"), std::string::npos);
}

TEST(GeneratedDocs, BashOffersEveryBuiltinFormulaForRankFormula) {
  std::set<std::string> formulas;
  std::istringstream listing(run_dlfl("formulas").out);
  for (std::string line; std::getline(listing, line);)
    if (!line.empty()) formulas.insert(line.substr(0, line.find(' ')));
  ASSERT_GT(formulas.size(), 30u);
  EXPECT_EQ(lines_of(bash_offers({"dlfl", "rank", "--formula", ""})), formulas);
  EXPECT_EQ(lines_of(bash_offers({"dlfl", "rank", "-f", "dst"})), (std::set<std::string>{"dstar2", "dstar3"}));
  // --formula=VALUE: bash splits the word at '='.
  EXPECT_EQ(lines_of(bash_offers({"dlfl", "rank", "--formula", "=", "ochiai"})),
            (std::set<std::string>{"ochiai", "ochiai2"}));
}

TEST(GeneratedDocs, BashOffersCommandsOptionsAndFormats) {
  EXPECT_EQ(lines_of(bash_offers({"dlfl", "ra"})), std::set<std::string>{"rank"});
  EXPECT_EQ(lines_of(bash_offers({"dlfl", "bugset", "re"})), std::set<std::string>{"reproduce"});
  const auto rank_options = lines_of(bash_offers({"dlfl", "rank", "--"}));
  for (const auto& option : help_long_options("rank")) EXPECT_TRUE(rank_options.count(option)) << option;
  const auto formats = lines_of(bash_offers({"dlfl", "rank", "--format", ""}));
  for (const char* format : {"table", "csv", "json", "sarif", "github", "html"})
    EXPECT_TRUE(formats.count(format)) << format;
  // Values are skipped when finding the command: `--top 5` is not a subcommand or path.
  EXPECT_EQ(lines_of(bash_offers({"dlfl", "rank", "--top", "5", "--gran"})), std::set<std::string>{"--granularity"});
  // A number has nothing to offer; an option value that is a path offers files.
  EXPECT_EQ(lines_of(bash_offers({"dlfl", "rank", "--top", ""})), std::set<std::string>{});
  const std::string files = bash_offers({"dlfl", "rank", "--output", kDocs.string() + "/compl"});
  EXPECT_EQ(lines_of(files), std::set<std::string>{(kDocs / "completion").string()});
}

}  // namespace
}  // namespace dlfl::testing
