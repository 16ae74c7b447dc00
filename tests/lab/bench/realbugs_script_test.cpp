// scripts/realbugs.sh end to end on the fixture bug sets: the calc fixture as the DL side
// (a manifest-shaped list, reproduce_fixture/), ministr as the traditional side (a
// BugsC++ checkout, bugscpp_fixture/): both sides reproduced, ranked with each formula
// and technique, evaluated, compared and written up in OUT/results.md; a second run on a
// subset into a fresh OUT gives the same positions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include <sys/wait.h>

#include "../../cli/cli_runner.h"
#include "../../support/shell_output.h"
#include "realbugs_fixture.h"
#include "dlfl/lab/bench/host_cpu.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using dlfl::testing::slurp;

using Shell = dlfl::testing::ShellRun;

// stdout and stderr together.
Shell shell(const std::string& command) { return dlfl::testing::capture_shell(command + " 2>&1"); }

// The rows of an eval.csv that belong to `bug`, in file order.
std::string rows_of(const std::string& csv, const std::string& bug) {
  std::istringstream in(csv);
  std::string line, rows;
  while (std::getline(in, line))
    if (line.starts_with(bug + ",")) rows += line + "\n";
  return rows;
}

class RealbugsScript : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    fixture_ = dlfl::testing::make_realbugs_fixture(dir_.path(), DLFL_REPRODUCE_FIXTURE, DLFL_BUGSCPP_FIXTURE, error);
    ASSERT_TRUE(error.empty()) << error;
  }
  fs::path repos() const { return fixture_.repos; }
  fs::path lists() const { return fixture_.lists; }
  Shell realbugs(const std::string& args) const {
    return shell("DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) + " --repos " +
                 repos().string() + " --bugscpp " + (dir_ / "bugscpp").string() + " --lists " + lists().string() + " " + args);
  }

  dlfl::testing::TempDir dir_{"realbugs"};
  dlfl::testing::RealbugsFixture fixture_;
};

TEST_F(RealbugsScript, ReproducesBothSidesComparesThemAndASecondRunGivesTheSamePositions) {
  const fs::path out = dir_ / "out";
  const Shell first = realbugs("-o " + out.string() + " --jobs 1");
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_THAT(first.out, HasSubstr("realbugs.sh: dl: reproducing 2 of the 2 listed bugs"));
  const std::string page = slurp(out / "results.md");
  EXPECT_THAT(page, HasSubstr("## DL side\n\n2 bugs listed, 2 run, 1 kept from 1 projects (fixture+calc), 1 discarded."));
  EXPECT_THAT(page, HasSubstr("Discarded: build failed 1."));
  EXPECT_THAT(page, HasSubstr("## Traditional side\n\n2 bugs listed, 2 run, 1 kept from 1 projects (ministr), 1 discarded."));
  EXPECT_THAT(page, HasSubstr("Discarded: failing cases differ 1."));
  // ministr#1: only the failing case runs the faulty line, first for every technique.
  EXPECT_THAT(page, HasSubstr("| ministr#1 | 4 (1) | 1 | 1 | 1 | 1 | 1 | 1 | 1 |"));
  EXPECT_THAT(page, HasSubstr("| fixture+calc#1 |"));
  EXPECT_THAT(page, HasSubstr("| ochiai-flitsr | function | 1 |"));
  EXPECT_THAT(page, HasSubstr("## DL against traditional"));
  EXPECT_THAT(page, HasSubstr("Mann-Whitney"));
  const std::string eval_first = rows_of(slurp(out / "traditional" / "eval.csv"), "ministr#1");
  ASSERT_THAT(eval_first, HasSubstr("ministr#1,ochiai,line,average,"));

  // Resumed: nothing runs again, the page is the same.
  const Shell again = realbugs("-o " + out.string());
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_EQ(slurp(out / "results.md"), page);

  // Labels add the DL side by DL bug type; a later page without them has no such section
  // (the comparison of the labelled run is not carried over).
  const fs::path labels = dir_ / "labels.csv";
  dlfl::testing::write_text(labels, "id,dl_bug_type\nfixture+calc#1,Model\n");
  const Shell labelled = realbugs("-o " + out.string() + " --no-reproduce --labels " + labels.string());
  ASSERT_EQ(labelled.status, 0) << labelled.out;
  EXPECT_THAT(slurp(out / "results.md"), HasSubstr("## DL bugs by DL bug type"));
  EXPECT_THAT(slurp(out / "results.md"), HasSubstr("Model"));
  const Shell unlabelled = realbugs("-o " + out.string() + " --no-reproduce");
  ASSERT_EQ(unlabelled.status, 0) << unlabelled.out;
  EXPECT_THAT(slurp(out / "results.md"), Not(HasSubstr("## DL bugs by DL bug type")));
  EXPECT_TRUE(slurp(out / "results.md") == page);

  // A subset into a fresh OUT reproduces the same positions.
  const fs::path subset = dir_ / "subset";
  const Shell second = realbugs("-o " + subset.string() + " --side traditional --bug ministr#1");
  ASSERT_EQ(second.status, 0) << second.out;
  EXPECT_THAT(second.out, HasSubstr("realbugs.sh: traditional: reproducing 1 of the 2 listed bugs"));
  EXPECT_EQ(rows_of(slurp(subset / "traditional" / "eval.csv"), "ministr#1"), eval_first);
  EXPECT_THAT(slurp(subset / "results.md"), Not(HasSubstr("## DL side")));
}

TEST_F(RealbugsScript, AListWrittenFromARunIsReproducedWithTheSameTestsFaultyLinesAndPositions) {
  // The DL side's manifest names each changed function (its "methods"); the kept bugs'
  // faulty lines carry those names, so a list written from the run must keep them.
  const fs::path out = dir_ / "out";
  ASSERT_EQ(realbugs("-o " + out.string() + " --side dl").status, 0);
  const Shell listed = shell("/usr/bin/python3 " + (fs::path(DLFL_REALBUGS_SCRIPT).parent_path() / "realbugs_record.py").string() +
                             " list " + out.string() + " dl");
  ASSERT_EQ(listed.status, 0) << listed.out;
  ASSERT_THAT(listed.out, HasSubstr("\"fixture+calc#1\""));
  const fs::path written = dir_ / "written";
  fs::create_directories(written);
  dlfl::testing::write_text(written / "dl.jsonl", listed.out);
  const Shell rerun = shell("DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) +
                            " --repos " + repos().string() + " --lists " + written.string() + " --side dl -o " +
                            (dir_ / "rerun").string());
  ASSERT_EQ(rerun.status, 0) << rerun.out;
  EXPECT_THAT(slurp(dir_ / "rerun" / "results.md"),
              HasSubstr("1 of 1 bugs the list records as reproduced were reproduced with the same failing tests and "
                        "faulty lines."));
  // The list records where the run ranked the bug; the rerun ranked it there again.
  EXPECT_THAT(listed.out, HasSubstr("\"positions\": {"));
  EXPECT_THAT(listed.out, HasSubstr("\"ochiai\": {\"function\": ["));
  EXPECT_THAT(slurp(dir_ / "rerun" / "results.md"),
              HasSubstr("1 of 1 bugs the list records positions for gave the same positions (best/average/worst) of "
                        "the first faulty line and function for every formula and technique."));
  // The list and the page name the CPU the bug was reproduced on.
  EXPECT_THAT(listed.out, HasSubstr("\"host\": \"" + host_cpu() + "\""));
  EXPECT_THAT(slurp(dir_ / "rerun" / "results.md"), HasSubstr("Reproduced on: " + host_cpu() + "."));

  // A list whose recorded Ochiai line position is not the one the rerun found, recorded
  // on another CPU: the page names the bug, the technique, both positions and both CPUs.
  const auto edit = [&](const std::string& host) {
    return shell("/usr/bin/python3 -c 'import json, sys\n"
                 "e = json.loads(open(sys.argv[1]).read())\n"
                 "e[\"positions\"][\"ochiai\"][\"line\"] = [40, 41.5, 43]\n"
                 "e[\"host\"] = sys.argv[2]\n"
                 "open(sys.argv[1], \"w\").write(json.dumps(e) + \"\\n\")' " +
                 (written / "dl.jsonl").string() + " '" + host + "'");
  };
  const std::string page_only = "DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) +
                                " --lists " + written.string() + " --side dl --no-reproduce -o " + (dir_ / "rerun").string();
  // A host that Markdown would read is a one-line error.
  ASSERT_EQ(edit("<b>x</b> | y").status, 0);
  const Shell bad = shell(page_only);
  EXPECT_EQ(WEXITSTATUS(bad.status), 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr("dl.jsonl: fixture+calc#1: host must name a CPU"));
  ASSERT_EQ(edit("Other CPU (x86_64: sse4_2)").status, 0);
  const Shell report = shell(page_only);
  ASSERT_EQ(report.status, 0) << report.out;
  EXPECT_THAT(slurp(dir_ / "rerun" / "results.md"),
              HasSubstr("0 of 1 bugs the list records positions for gave the same positions (best/average/worst) of "
                        "the first faulty line and function for every formula and technique; different: "
                        "fixture+calc#1 (ochiai line: listed 40/41.5/43, now "));
  EXPECT_THAT(slurp(dir_ / "rerun" / "results.md"),
              HasSubstr("; recorded on Other CPU (x86_64: sse4_2), rerun on " + host_cpu() + ")."));

  // A listed bug this run did not run is not judged: the counts are of the bugs it ran.
  std::string two = slurp(written / "dl.jsonl");
  std::string other = two;
  other.replace(other.find("\"fixture+calc#1\""), 16, "\"fixture+calc#9\"");
  dlfl::testing::write_text(written / "dl.jsonl", two + other);
  const Shell subset = shell("DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) +
                             " --lists " + written.string() + " --side dl --no-reproduce -o " + (dir_ / "rerun").string());
  ASSERT_EQ(subset.status, 0) << subset.out;
  EXPECT_THAT(slurp(dir_ / "rerun" / "results.md"),
              HasSubstr("1 of 1 bugs the list records as reproduced were reproduced with the same failing tests"));
}

// The per-technique rows (technique | level | n | ...) of a page's section, in order.
std::string summary_rows(const std::string& page, const std::string& section) {
  const auto from = page.find(section);
  std::istringstream in(from == std::string::npos ? "" : page.substr(from, page.find("\n## ", from + 1) - from));
  std::string line, rows;
  while (std::getline(in, line))
    if (line.find(" | line | ") != std::string::npos || line.find(" | function | ") != std::string::npos) rows += line + "\n";
  return rows;
}

// The line of `text` that holds `needle`.
std::string line_with(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

TEST_F(RealbugsScript, TheFiguresAddUpWhatTheListsRecordOfTheBugsARunDidNotRun) {
  // A run with --record writes its kept bugs' values into the lists; the discarded
  // bug's entry and the one of a bug it did not run stay as they were.
  const std::string calc5 = line_with(slurp(lists() / "dl.jsonl"), "\"fixture+calc#5\"");
  ASSERT_FALSE(calc5.empty());
  const fs::path out = dir_ / "out";
  const Shell run = realbugs("-o " + out.string() + " --record");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_THAT(run.out, HasSubstr("dl.jsonl: 1 entries replaced and 0 added from " + out.string() + "/dl"));
  const std::string dl = slurp(lists() / "dl.jsonl"), traditional = slurp(lists() / "traditional.jsonl");
  EXPECT_THAT(dl, HasSubstr("\"ochiai\": {\"function\": {\"ap\": 1, \"e_inspect\": 1, \"elements\": "));
  EXPECT_THAT(traditional, HasSubstr("\"id\": \"ministr#1\""));
  EXPECT_THAT(traditional, HasSubstr("\"exam_ran\": "));
  EXPECT_THAT(traditional, HasSubstr("{\"id\": \"ministr#2\", \"project\": \"ministr\"}\n"));
  EXPECT_EQ(line_with(dl, "\"fixture+calc#5\""), calc5);
  const std::string page = slurp(out / "results.md");

  // From the lists alone, with nothing run and no clones: the spectra the lists keep are
  // ranked and evaluated again, to the run's figures and comparison.
  const auto from_lists_alone = [&](const fs::path& dest) {
    return shell("DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) + " --lists " +
                 lists().string() + " --no-reproduce -o " + dest.string());
  };
  const fs::path reranked = dir_ / "reranked";
  const Shell again = from_lists_alone(reranked);
  ASSERT_EQ(again.status, 0) << again.out;
  const std::string from_spectra = slurp(reranked / "results.md");
  EXPECT_THAT(from_spectra, HasSubstr("2 bugs listed, 0 run, 0 kept from 0 projects (none), 0 discarded.\n"
                                      "Ranked and evaluated from the spectrum the lists keep, under the rule, not run: "
                                      "fixture+calc#1.\n"));
  for (const char* side : {"## DL side", "## Traditional side"})
    EXPECT_EQ(summary_rows(from_spectra, side), summary_rows(page, side)) << side;
  // The bug's row, its test counts from the entry included, as the run printed it.
  const auto first_row = [](const std::string& text, const std::string& start) {
    const auto at = text.find(start);
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  ASSERT_NE(first_row(page, "| fixture+calc#1 | "), "") << page;
  EXPECT_EQ(first_row(from_spectra, "| fixture+calc#1 | "), first_row(page, "| fixture+calc#1 | "));
  EXPECT_EQ(slurp(reranked / "compare.md"), slurp(out / "compare.md"));

  // Without the kept spectra: the positions and values the entries record, the bugs
  // marked as the lists' and the bug without values named.
  fs::rename(lists() / "spectra", dir_ / "kept-spectra");
  const fs::path listed = dir_ / "listed";
  const Shell report = from_lists_alone(listed);
  ASSERT_EQ(report.status, 0) << report.out;
  const std::string from_lists = slurp(listed / "results.md");
  EXPECT_THAT(from_lists, HasSubstr("2 bugs listed, 0 run, 0 kept from 0 projects (none), 0 discarded.\n"
                                    "The figures below are of 1 listed bugs this run did not run, marked (listed), "
                                    "with the positions and values their entries record.\n"
                                    "Not in the figures: 1 listed bugs this run did not run, whose entries record no "
                                    "values (fixture+calc#5)."));
  EXPECT_THAT(from_lists, HasSubstr("| ministr#1 (listed) | 4 (1) | 1 | 1 | 1 | 1 | 1 | 1 | 1 |"));
  for (const char* side : {"## DL side", "## Traditional side"}) {
    ASSERT_THAT(summary_rows(page, side), HasSubstr("| ochiai | line | 1 |"));
    EXPECT_EQ(summary_rows(from_lists, side), summary_rows(page, side)) << side;
  }
  EXPECT_EQ(slurp(listed / "compare.md"), slurp(out / "compare.md"));

  // A run of one bug, which it discards: its side's figures are the other bug's, as
  // listed.
  const fs::path one = dir_ / "one";
  const Shell subset = realbugs("-o " + one.string() + " --side dl --bug fixture+calc#5");
  ASSERT_EQ(subset.status, 0) << subset.out;
  const std::string one_page = slurp(one / "results.md");
  EXPECT_THAT(one_page, HasSubstr("2 bugs listed, 1 run, 0 kept from 0 projects (none), 1 discarded.\n"
                                  "Discarded: build failed 1.\n"
                                  "The figures below are of 1 listed bugs this run did not run"));
  EXPECT_THAT(one_page, HasSubstr("| fixture+calc#1 (listed) |"));
  EXPECT_EQ(summary_rows(one_page, "## DL side"), summary_rows(page, "## DL side"));

  // An entry whose values are not numbers is a one-line error naming the list and the bug.
  std::string broken = traditional;
  ASSERT_NE(broken.find("\"ap\": 1,"), std::string::npos);
  broken.replace(broken.find("\"ap\": 1,"), 8, "\"ap\": \"1\",");
  dlfl::testing::write_text(lists() / "traditional.jsonl", broken);
  const Shell bad = from_lists_alone(dir_ / "bad");
  EXPECT_EQ(WEXITSTATUS(bad.status), 2) << bad.out;
  EXPECT_THAT(bad.out, HasSubstr((lists() / "traditional.jsonl").string() +
                                 ": ministr#1: evaluation must map techniques to line and function values"));
  EXPECT_FALSE(fs::exists(dir_ / "bad" / "results.md"));
}

TEST_F(RealbugsScript, ABugRunsUnderTheRecipeItsEntryNamesAndAListKeepsThatName) {
  // calc#1's entry names a recipe of its own, before its project's (fixture+calc.json).
  std::string dl = slurp(lists() / "dl.jsonl");
  const auto at = dl.find("{\"id\": \"fixture+calc#1\"");
  ASSERT_NE(at, std::string::npos) << dl;
  dl.insert(at + 1, "\"recipe_file\": \"calc-one.json\", ");
  dlfl::testing::write_text(lists() / "dl.jsonl", dl);
  dlfl::testing::write_text(lists() / "recipes" / "calc-one.json", R"({"timeouts": {"test": 90}})");
  const fs::path out = dir_ / "out";
  const Shell run = realbugs("-o " + out.string() + " --side dl --bug fixture+calc#1");
  ASSERT_EQ(run.status, 0) << run.out;
  std::string own;
  for (const auto& entry : fs::directory_iterator(out / "dl" / "recipes"))
    if (entry.path().filename().string().starts_with("fixture+calc#1-")) own = slurp(entry.path());
  EXPECT_THAT(own, HasSubstr("\"test\": 90"));
  const Shell listed = shell("/usr/bin/python3 " + (fs::path(DLFL_REALBUGS_SCRIPT).parent_path() / "realbugs_record.py").string() +
                             " list " + out.string() + " dl");
  ASSERT_EQ(listed.status, 0) << listed.out;
  EXPECT_THAT(listed.out, HasSubstr("\"recipe_file\": \"calc-one.json\""));

  // A name that reaches outside the recipes folder is refused before anything runs.
  dl.replace(dl.find("calc-one.json"), 13, "../../x.json");
  dlfl::testing::write_text(lists() / "dl.jsonl", dl);
  const Shell outside = realbugs("-o " + (dir_ / "o3").string() + " --side dl");
  EXPECT_EQ(WEXITSTATUS(outside.status), 2);
  EXPECT_THAT(outside.out, HasSubstr("fixture+calc#1: recipe_file must name a .json file in the recipes folder, not '../../x.json'"));
  EXPECT_FALSE(fs::exists(dir_ / "o3" / "dl" / "results.jsonl"));
}

TEST_F(RealbugsScript, InstallsThePackagesOfTheBugsItReproducesFirstAndOnlyDebianNames) {
  // By project and by bug; another project's are not installed, a name given twice once.
  dlfl::testing::write_text(lists() / "packages.json", R"({"fixture+calc": ["calc-dep"],
    "fixture+calc#1": ["calc-one-dep", "calc-dep"], "fixture+calc#5": ["calc-five-dep"], "ministr": ["ministr-dep"]})");
  // The installer records what it was given and fails: nothing may be reproduced then.
  const fs::path installer = dir_ / "install.sh";
  dlfl::testing::write_text(installer, "#!/bin/sh\necho \"$@\" >> " + (dir_ / "installed.txt").string() + "\nexit 1\n");
  fs::permissions(installer, fs::perms::owner_all);
  const auto run = [&](const std::string& args) {
    return shell("DLFL_INSTALL_DEPS=" + installer.string() + " DLFL=" + std::string(DLFL_BINARY) + " bash " +
                 std::string(DLFL_REALBUGS_SCRIPT) + " --repos " + repos().string() + " --lists " + lists().string() +
                 " " + args);
  };
  const Shell failed = run("--side dl --bug fixture+calc#1 -o " + (dir_ / "o1").string());
  EXPECT_EQ(WEXITSTATUS(failed.status), 2) << failed.out;
  EXPECT_THAT(failed.out, HasSubstr("installing the packages " + (lists() / "packages.json").string() +
                                    " names for the dl side failed: calc-dep calc-one-dep"));
  EXPECT_EQ(slurp(dir_ / "installed.txt"), "--only calc-dep calc-one-dep\n");
  EXPECT_FALSE(fs::exists(dir_ / "o1" / "dl" / "results.jsonl"));

  // A name apt would read as an option (or anything but a Debian package name) stops the
  // run before the installer is called.
  fs::remove(dir_ / "installed.txt");
  dlfl::testing::write_text(lists() / "packages.json", R"({"fixture+calc": ["-oDebug::pkgProblemResolver=1"]})");
  const Shell refused = run("--side dl -o " + (dir_ / "o2").string());
  EXPECT_EQ(WEXITSTATUS(refused.status), 2) << refused.out;
  EXPECT_THAT(refused.out, HasSubstr("fixture+calc: '-oDebug::pkgProblemResolver=1' is not a Debian package name"));
  EXPECT_FALSE(fs::exists(dir_ / "installed.txt"));
  EXPECT_FALSE(fs::exists(dir_ / "o2" / "dl" / "results.jsonl"));
}

TEST_F(RealbugsScript, BuildJobsBoundsTheCompileJobsAndTestsOfEachBug) {
  // A dlfl that notes its arguments: bugset reproduce must be given --build-jobs.
  const fs::path noted = dir_ / "dlfl-args.txt";
  const fs::path wrapper = dir_ / "dlfl";
  dlfl::testing::write_text(wrapper, "#!/bin/sh\necho \"$*\" >> " + noted.string() + "\nexec " + std::string(DLFL_BINARY) +
                                         " \"$@\"\n");
  fs::permissions(wrapper, fs::perms::owner_all);
  const auto run = [&](const std::string& args) {
    return shell("DLFL=" + wrapper.string() + " bash " + std::string(DLFL_REALBUGS_SCRIPT) + " --repos " + repos().string() +
                 " --lists " + lists().string() + " --side dl --bug fixture+calc#1 " + args);
  };
  const Shell serial = run("--build-jobs 1 -o " + (dir_ / "o1").string());
  ASSERT_EQ(serial.status, 0) << serial.out;
  std::string reproduce;
  std::istringstream calls(slurp(noted));
  for (std::string call; std::getline(calls, call);)
    if (call.starts_with("bugset reproduce ")) reproduce = call;
  EXPECT_THAT(reproduce, HasSubstr("--bug fixture+calc#1"));
  EXPECT_THAT(reproduce, HasSubstr("--build-jobs 1"));
  EXPECT_THAT(slurp(dir_ / "o1" / "results.md"), HasSubstr("2 bugs listed, 1 run, 1 kept from 1 projects (fixture+calc), 0 discarded."));

  // Anything but a positive number stops the run before dlfl is called.
  fs::remove(noted);
  for (const std::string bad : {"0", "two", "-1"}) {
    const Shell refused = run("--build-jobs " + bad + " -o " + (dir_ / "o2").string());
    EXPECT_EQ(WEXITSTATUS(refused.status), 2) << refused.out;
    EXPECT_THAT(refused.out, HasSubstr("realbugs.sh: error: --build-jobs: a positive number, not '" + bad + "'"));
  }
  EXPECT_FALSE(fs::exists(noted));
  EXPECT_FALSE(fs::exists(dir_ / "o2"));

  // --mbfl-per-line goes to bugset reproduce with --mbfl; a bad one stops the run first.
  const Shell spread = run("--mbfl 3 --mbfl-per-line 1 -o " + (dir_ / "o3").string());
  ASSERT_EQ(spread.status, 0) << spread.out;
  std::istringstream mbfl_calls(slurp(noted));
  for (std::string call; std::getline(mbfl_calls, call);)
    if (call.starts_with("bugset reproduce ")) reproduce = call;
  EXPECT_THAT(reproduce, HasSubstr("--mbfl 3 --mbfl-per-line 1"));
  fs::remove(noted);
  const Shell refused = run("--mbfl 3 --mbfl-per-line 0 -o " + (dir_ / "o4").string());
  EXPECT_EQ(WEXITSTATUS(refused.status), 2) << refused.out;
  EXPECT_THAT(refused.out, HasSubstr("realbugs.sh: error: --mbfl-per-line: a positive number of mutants, not '0'"));
  EXPECT_FALSE(fs::exists(noted));
}

TEST_F(RealbugsScript, AMissingListOrBugsCppCheckoutIsAOneLineError) {
  const Shell no_list = realbugs("-o " + (dir_ / "o1").string() + " --lists " + (dir_ / "nowhere").string());
  EXPECT_EQ(WEXITSTATUS(no_list.status), 2);
  EXPECT_THAT(no_list.out, HasSubstr("nowhere/dl.jsonl: no such list"));
  const Shell no_checkout = shell("DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) +
                                  " --repos " + repos().string() + " --lists " + lists().string() + " --side traditional -o " +
                                  (dir_ / "o2").string());
  EXPECT_EQ(WEXITSTATUS(no_checkout.status), 2);
  EXPECT_THAT(no_checkout.out, HasSubstr("--bugscpp DIR is required for the traditional side"));
}

TEST_F(RealbugsScript, AnInsertionOnlyFixGivesTheLinesNextToItOnBothSides) {
  // calc#7's fix inserts two lines into median() (after line 9) and ministr#4's two into
  // abs_val() (after line 11): the faulty lines are the buggy version's executable lines
  // next to the insertion, on both sides alike; the whole-file convention, the
  // sensitivity variant, counts the whole file.
  const fs::path fixture = dir_ / "omission";
  ASSERT_EQ(shell("sh " + (fs::path(DLFL_BUGSCPP_FIXTURE) / "make_fixture.sh").string() + " " + fixture.string() +
                  " --crashing --omission").status, 0);  // defects 1-4: BugsC++ numbers patches by position
  ASSERT_EQ(shell("git clone -q " + (repos() / "calc").string() + " " + (fixture / "clones" / "calc").string()).status, 0);
  std::string calc7 = slurp(fs::path(DLFL_REPRODUCE_FIXTURE) / "manifest-omission.jsonl.in");
  const std::string hash = shell("git -C " + (repos() / "calc").string() + " rev-parse fix7").out.substr(0, 40);
  calc7.replace(calc7.find("@FIX7@"), 6, hash);
  const fs::path lists = dir_ / "omission-lists";
  fs::create_directories(lists);
  dlfl::testing::write_text(lists / "dl.jsonl", calc7);
  dlfl::testing::write_text(lists / "traditional.jsonl", "{\"id\": \"ministr#4\", \"project\": \"ministr\"}\n");
  const fs::path out = dir_ / "out";
  const std::string script = "DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) +
                             " --lists " + lists.string() + " ";
  const Shell run = shell(script + "--repos " + (fixture / "clones").string() + " --bugscpp " + fixture.string() +
                          " -o " + out.string() + " --record");
  ASSERT_EQ(run.status, 0) << run.out;
  const auto lines_of = [](const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line.substr(0, line.find(':', line.find(':') + 1)));
    return lines;
  };
  const fs::path calc = out / "dl" / "spectra" / "fixture+calc#7";
  const fs::path ministr = out / "traditional" / "spectra" / "ministr#4";
  EXPECT_THAT(lines_of(slurp(calc.string() + ".truth")), ::testing::ElementsAre("src/median.cpp:9", "src/median.cpp:10"));
  EXPECT_THAT(lines_of(slurp(ministr.string() + ".truth")), ::testing::ElementsAre("src/mathx.c:11", "src/mathx.c:12"));
  EXPECT_EQ(slurp(calc.string() + ".whole-file.truth"), "src/median.cpp\n");
  EXPECT_EQ(slurp(ministr.string() + ".whole-file.truth"), "src/mathx.c\n");
  const std::string page = slurp(out / "results.md");
  EXPECT_THAT(page, HasSubstr("ochiai-whole-file"));
  // Both are found at the top (only the failing test runs the lines next to the
  // insertion) under the rule and under the whole-file convention, whose file ties.
  EXPECT_THAT(page, HasSubstr("| ministr#4 | 4 (1) | 1 |"));

  // The lists now say which rule their values are under and keep each spectrum,
  // compressed; `dlfl bugset truth` derives the same truth from the list and the spectrum.
  const std::string dl = slurp(lists / "dl.jsonl");
  EXPECT_THAT(dl, HasSubstr("\"truth_rule\": \"adjacent-lines\""));
  EXPECT_THAT(dl, HasSubstr("\"faulty_whole_file\": [\"src/median.cpp\"]"));
  ASSERT_TRUE(fs::exists(lists / "spectra" / "dl" / "fixture+calc#7.dlfl.xz"));
  ASSERT_TRUE(fs::exists(lists / "spectra" / "traditional" / "ministr#4.dlfl.xz"));
  // In a subshell: shell() sends the command's stderr to its stdout.
  const Shell truth = shell("(" + std::string(DLFL_BINARY) + " bugset truth " + (lists / "dl.jsonl").string() +
                            " --bug 'fixture+calc#7' --spectrum '" + calc.string() + ".dlfl' 2>/dev/null)");
  ASSERT_EQ(truth.status, 0) << truth.out;
  EXPECT_EQ(truth.out, slurp(calc.string() + ".truth"));

  // From the lists alone, nothing run and no clones: the kept spectra are ranked and
  // evaluated again, to the same rows as the run's.
  const fs::path again = dir_ / "again";
  const Shell page_only = shell(script + "--no-reproduce -o " + again.string());
  ASSERT_EQ(page_only.status, 0) << page_only.out;
  EXPECT_THAT(slurp(again / "results.md"),
              HasSubstr("Ranked and evaluated from the spectrum the lists keep, under the rule, not run: ministr#4."));
  for (const char* side : {"dl", "traditional"})
    EXPECT_EQ(slurp(again / side / "eval.csv"), slurp(out / side / "eval.csv")) << side;
  EXPECT_EQ(slurp(again / "traditional" / "spectra" / "ministr#4.truth"), slurp(ministr.string() + ".truth"));

  // A spectrum over the bound stays out of the lists, and the run says so.
  fs::remove_all(lists / "spectra");
  const Shell small = shell("DLFL_KEPT_SPECTRUM_BYTES=10 " + script + "--no-reproduce -o " + out.string() + " --record");
  ASSERT_EQ(small.status, 0) << small.out;
  EXPECT_THAT(small.out, HasSubstr("is over 10 bytes, not copied into"));
  EXPECT_FALSE(fs::exists(lists / "spectra" / "dl" / "fixture+calc#7.dlfl.xz"));
}

}  // namespace
}  // namespace dlfl::bench
