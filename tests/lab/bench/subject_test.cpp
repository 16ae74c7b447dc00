// Subject files: the fields, their defaults, and one clear error per mistake.
#include "dlfl/lab/bench/subject.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "dlfl/lab/bench/subject_setup.h"
#include "dlfl/collect/shell_quoting.h"
#include "dlfl/error.h"
#include "../../support/test_files.h"
#include "../../support/shell_output.h"

namespace dlfl::bench {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kFile = "/work/subjects/demo/dlfl-subject.json";

std::string minimal(const std::string& extra = "") {
  return R"({"name": "demo", "configure": "cmake -S {source} -B {build} {launcher}",
             "build": "cmake --build {build} -j {jobs}", "test_binary": "demo_tests")" +
         extra + "}";
}

std::string error_of(const std::string& text) {
  try {
    parse_subject(text, kFile);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Subject, MinimalFileGetsTheDefaults) {
  const Subject s = parse_subject(minimal(), kFile);
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(s.kind, "dl");
  EXPECT_EQ(s.root, std::filesystem::path("/work/subjects/demo"));
  EXPECT_EQ(s.test_binary, "demo_tests");
  EXPECT_EQ(s.backend, Backend::runtime);
  EXPECT_EQ(s.mutate_files, std::vector<std::string>{"src/**"});
  EXPECT_EQ(s.instrument_exclude, std::vector<std::string>{"tests/"});
  EXPECT_EQ(s.fault_timeout, std::chrono::seconds(120));
}

TEST(Subject, ReadsEveryField) {
  const Subject s = parse_subject(minimal(R"(, "kind": "traditional", "root": "../code", "test_filter": "A.*",
      "mutate": {"files": ["src/*.cpp"], "exclude": ["src/gen.cpp"], "operators": ["traditional"]},
      "instrument_exclude": ["tests/", "bench/"], "backend": "gcov",
      "timeouts": {"build": 30, "test": 2, "fault": 9.6})"),
                                  kFile);
  EXPECT_EQ(s.kind, "traditional");
  EXPECT_EQ(s.root, std::filesystem::path("/work/subjects/code"));
  EXPECT_EQ(s.test_filter, "A.*");
  EXPECT_EQ(s.mutate_files, std::vector<std::string>{"src/*.cpp"});
  EXPECT_EQ(s.mutate_exclude, std::vector<std::string>{"src/gen.cpp"});
  EXPECT_EQ(s.operators, std::vector<std::string>{"traditional"});
  EXPECT_EQ(s.instrument_exclude.size(), 2u);
  EXPECT_EQ(s.backend, Backend::gcov);
  EXPECT_EQ(s.build_timeout, std::chrono::seconds(30));
  EXPECT_EQ(s.test_timeout, std::chrono::seconds(2));
  EXPECT_EQ(s.fault_timeout, std::chrono::seconds(10));
  // Rounded up: a fraction of a second must not become 0 ("timed out at once").
  EXPECT_EQ(parse_subject(minimal(R"(, "timeouts": {"test": 0.3})"), kFile).test_timeout, std::chrono::seconds(1));
}

TEST(Subject, ErrorsNameTheFileAndTheMistake) {
  EXPECT_THAT(error_of("{"), HasSubstr(kFile.string() + ": not valid JSON"));
  EXPECT_THAT(error_of("[]"), HasSubstr("one JSON object"));
  EXPECT_THAT(error_of(R"({"configure": "x", "build": "y", "test_binary": "t"})"), HasSubstr("missing field \"name\""));
  EXPECT_THAT(error_of(minimal(R"(, "colour": "red")")), HasSubstr("unknown field \"colour\""));
  EXPECT_THAT(error_of(minimal(R"(, "kind": "ml")")), HasSubstr("kind must be"));
  EXPECT_THAT(error_of(minimal(R"(, "backend": "valgrind")")), HasSubstr("backend must be"));
  EXPECT_THAT(error_of(minimal(R"(, "timeouts": {"test": 0})")), HasSubstr("number of seconds in (0, 604800]"));
  EXPECT_THAT(error_of(minimal(R"(, "timeouts": {"test": 1e300})")), HasSubstr("number of seconds in (0, 604800]"));
  // Issue #14: nlohmann's out_of_range escaped as exit 1.
  EXPECT_THAT(error_of(minimal(R"(, "timeouts": {"test": 1e400})")), HasSubstr(kFile.string() + ": not valid JSON"));
  EXPECT_THAT(error_of(minimal(R"(, "timeouts": {"tset": 1})")), HasSubstr("unknown field \"tset\" in \"timeouts\""));
  EXPECT_THAT(error_of(minimal(R"(, "mutate": {"files": "src"})")), HasSubstr("array of strings"));
  EXPECT_THAT(error_of(R"({"name": "a b", "configure": "x", "build": "y", "test_binary": "t"})"),
              HasSubstr("name 'a b'"));
  EXPECT_THAT(error_of(R"({"name": "a", "configure": "make {target}", "build": "y", "test_binary": "t"})"),
              HasSubstr("unknown placeholder {target}"));
  EXPECT_THAT(error_of(R"({"name": "a", "configure": "x", "build": "y", "test_binary": 3})"),
              HasSubstr("\"test_binary\" must be a string"));
}

TEST(Subject, UnreadableFileIsAnError) {
  EXPECT_THROW(read_subject("/nonexistent/dlfl-subject.json"), Error);
}

TEST(ExpandCommand, ReplacesPlaceholdersAndEscapes) {
  const std::map<std::string, std::string> vars{{"source", "/s"}, {"jobs", "2"}};
  EXPECT_EQ(expand_command("make -C {source} -j{jobs} {{literal}", vars), "make -C '/s' -j2 {literal}");
  EXPECT_THROW(expand_command("x {source", vars), Error);
  EXPECT_THROW(expand_command("x {build}", vars), Error);
}

using dlfl::testing::shell_output;

// A work tree's path comes from -o and a manifest's project name: blanks, quotes and
// `$(...)` in it stay part of one word wherever the recipe puts {source} and {build}.
TEST(ExpandCommand, PathsAreOneWordInEveryQuotingAndFlagListsStayWords) {
  const dlfl::testing::TempDir dir("expand-command");
  const std::string marker = (dir / "ran").string();
  const std::string hostile = (dir / "out dir $(touch ran) `touch ran` it's \"x\"").string();
  const std::map<std::string, std::string> vars{
      {"source", hostile}, {"build", hostile + "/b"}, {"cflags", "-O0 -g"}, {"jobs", "2"}};
  for (const std::string recipe :
       {"printf '[%s]' {source} {build}/b -DX='{cflags}' {cflags}", "printf '[%s]' '{source}' \"{build}\"/b -DX='{cflags}' {cflags}",
        "printf '[%s]' \"{source}\" '{build}/b' -DX='{cflags}' {cflags}"}) {
    const std::string command = "cd " + dlfl::collect::shell_quote(dir.path().string()) + " && " + expand_command(recipe, vars);
    const std::string out = shell_output(command);
    EXPECT_EQ(out, "[" + hostile + "][" + hostile + "/b/b][-DX=-O0 -g][-O0][-g]") << recipe << "\n" << command;
    EXPECT_FALSE(std::filesystem::exists(marker)) << recipe << " ran code from the path: " << command;
  }
}

// {fix_tests}: the fix's test files from a manifest, each one quoted word (a hostile name
// runs nothing and is never an option), and only where words go.
TEST(ExpandCommand, FixTestsAreQuotedWordsOutsideQuotesOnly) {
  const dlfl::testing::TempDir dir("expand-fix-tests");
  const std::map<std::string, std::string> vars{
      {"fix_tests", "tests/test_a.py\ntests/b c.py\n$(touch ran)\n-pevil\n"}, {"build", "/b"}};
  const std::string command =
      "cd " + dlfl::collect::shell_quote(dir.path().string()) + " && " + expand_command("printf '[%s]' {fix_tests}", vars);
  const std::string out = shell_output(command);
  EXPECT_EQ(out, "[tests/test_a.py][tests/b c.py][$(touch ran)][./-pevil]") << command;
  EXPECT_FALSE(std::filesystem::exists(dir / "ran")) << command;
  EXPECT_EQ(expand_command("t {fix_tests} --x", {{"fix_tests", ""}}), "t  --x");
  for (const char* quoted : {"t '{fix_tests}'", "t \"{fix_tests}\"", "t \\{fix_tests}"})
    EXPECT_THROW(expand_command(quoted, vars), Error) << quoted;
}

// The subjects shipped with the repository parse, with the backends and kinds the
// default benchmark relies on.
TEST(Subject, BundledSubjectsParse) {
  const std::filesystem::path examples = std::filesystem::path(DLFL_SOURCE_DIR) / "examples";
  const Subject tensorlite = read_subject(examples / "tensorlite/dlfl-subject.json");
  EXPECT_EQ(tensorlite.kind, "dl");
  EXPECT_EQ(tensorlite.backend, Backend::runtime);
  EXPECT_TRUE(std::filesystem::exists(tensorlite.root / "CMakeLists.txt"));
  const Subject confeval = read_subject(examples / "confeval/dlfl-subject.json");
  EXPECT_EQ(confeval.kind, "traditional");
  EXPECT_TRUE(std::filesystem::exists(confeval.root / "CMakeLists.txt"));
}

// The real-bug study's recipes (bugsets/recipes/PROJECT.json) parse, so a user's run of
// scripts/realbugs.sh does not stop at one after hours of others.
TEST(Recipe, CuratedRecipesParse) {
  const std::filesystem::path recipes = std::filesystem::path(DLFL_SOURCE_DIR) / "bugsets" / "recipes";
  std::size_t parsed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(recipes)) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_NO_THROW(read_recipe(entry.path())) << entry.path();
    ++parsed;
  }
  EXPECT_GE(parsed, 1u);
}

}  // namespace
}  // namespace dlfl::bench

namespace dlfl::bench {
namespace {

// Tests failing on the unmutated subject are left out of every fault's run.
TEST(WithoutTests, AddsNegativePatterns) {
  EXPECT_EQ(without_tests("", {}), "");
  EXPECT_EQ(without_tests("", {"A.b", "C/D.e/0"}), "*-A.b:C/D.e/0");
  EXPECT_EQ(without_tests("Suite.*", {"Suite.x"}), "Suite.*-Suite.x");
  EXPECT_EQ(without_tests("*-Slow.*", {"A.b"}), "*-Slow.*:A.b");
}

}  // namespace
}  // namespace dlfl::bench

namespace dlfl::bench {
namespace {

// The message of the error parse_recipe throws for `text`, or "no error".
std::string recipe_error(const std::string& text) {
  try {
    parse_recipe(text, kFile);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

// The default configure puts {cflags} inside single quotes: a recipe's cflags must not
// close them (a recipe without configure or build commands runs only dlfl's own).
TEST(Recipe, CflagsAreCompilerFlagsNeverShellText) {
  EXPECT_EQ(parse_recipe(R"({"cflags": "-Wno-error -fpermissive -DX=1 -I/opt/x_y,z"})", kFile).extra_cflags,
            "-Wno-error -fpermissive -DX=1 -I/opt/x_y,z");
  for (const char* hostile : {R"j({"cflags": "-O0'; touch /tmp/x; '"})j", R"j({"cflags": "$(touch /tmp/x)"})j",
                              R"j({"cflags": "-O0 `touch /tmp/x`"})j", R"j({"cflags": "-O0;touch"})j",
                              R"j({"cflags": "-DX=\"1\""})j", R"j({"cflags": "-O0\ntouch"})j"})
    EXPECT_THAT(recipe_error(hostile), HasSubstr("which the shell would read as more than a compiler flag")) << hostile;
}

// A reproduction recipe: the same file with every field optional, defaulting to the
// generic CMake recipe (gcov, CTest tests).
TEST(Recipe, EveryFieldIsOptionalAndDefaultsToTheGenericRecipe) {
  const Subject empty = parse_recipe("{}", kFile);
  const Subject generic = generic_recipe();
  EXPECT_EQ(empty.configure, generic.configure);
  EXPECT_EQ(empty.build, generic.build);
  EXPECT_EQ(empty.test_binary, "");  // the build's CTest tests
  EXPECT_EQ(empty.backend, Backend::gcov);
  EXPECT_EQ(empty.build_timeout, std::chrono::seconds(4 * 3600));
  EXPECT_THAT(generic.configure, HasSubstr("{cflags}"));
  EXPECT_THAT(generic.configure, HasSubstr("-DBUILD_TESTING=ON"));

  const Subject custom = parse_recipe(
      R"({"configure": "cmake -S {source} -B {build} -DBUILD_TESTS=ON", "test_binary": "test/t", "backend": "llvm",
          "timeouts": {"build": 60}})",
      kFile);
  EXPECT_EQ(custom.configure, "cmake -S {source} -B {build} -DBUILD_TESTS=ON");
  EXPECT_EQ(custom.build, generic.build);
  EXPECT_EQ(custom.test_binary, "test/t");
  EXPECT_EQ(custom.backend, Backend::llvm);
  EXPECT_EQ(custom.build_timeout, std::chrono::seconds(60));
  EXPECT_EQ(custom.test_timeout, generic.test_timeout);

  // The subject file's rules still hold: unknown fields and placeholders are errors.
  EXPECT_THROW(parse_recipe(R"({"configur": "x"})", kFile), Error);
  EXPECT_THROW(parse_recipe(R"({"build": "make {target}"})", kFile), Error);
  EXPECT_THROW(parse_recipe("[]", kFile), Error);
}

// Tests a program lists and runs one by name (Catch, Boost.Test, pytest over a coverage
// build): test_list and test_command, together, instead of test_binary or CTest.
TEST(Recipe, ListedTestsNeedBothCommandsAPlaceForTheNameAndPerProcessCoverage) {
  const Subject listed =
      parse_recipe(R"({"test_list": "./checks --list", "test_command": "cd {build} && ./checks {} --quiet"})", kFile);
  EXPECT_EQ(listed.test_list, "./checks --list");
  EXPECT_EQ(listed.test_command, "cd {build} && ./checks {} --quiet");
  EXPECT_EQ(listed.test_binary, "");
  const Subject subject = parse_subject(
      R"({"name": "demo", "configure": "x", "build": "y", "test_list": "t --list", "test_command": "t {}",
          "backend": "gcov"})",
      kFile);
  EXPECT_EQ(subject.test_command, "t {}");

  EXPECT_THAT(recipe_error(R"({"test_list": "t --list"})"), HasSubstr("test_list and test_command go together"));
  EXPECT_THAT(recipe_error(R"({"test_command": "t {}"})"), HasSubstr("test_list and test_command go together"));
  EXPECT_THAT(recipe_error(R"({"test_list": "t --list", "test_command": "t"})"),
              HasSubstr("test_command must hold {} where the test's name goes"));
  EXPECT_THAT(recipe_error(R"({"test_list": "t --list", "test_command": "t {}", "test_binary": "t"})"),
              HasSubstr("give one"));
  // A list's tests run one process each under every backend, the runtime's too.
  EXPECT_EQ(parse_subject(R"({"name": "demo", "configure": "x", "build": "y", "test_list": "t --list",
                              "test_command": "t {}", "backend": "runtime"})",
                          kFile)
                .backend,
            Backend::runtime);
  EXPECT_EQ(parse_recipe(R"({"test_list": "t --list", "test_command": "t {}", "backend": "runtime"})", kFile).backend,
            Backend::runtime);
  EXPECT_THAT(recipe_error(R"({"test_list": "t --list {target}", "test_command": "t {}"})"),
              HasSubstr("unknown placeholder {target}"));
  EXPECT_THAT(recipe_error(R"({"test_list": "t --list", "test_command": "t {} {name}"})"),
              HasSubstr("unknown placeholder {name}"));
  // The fix's test files are known to a reproduction's test commands only.
  const Subject by_fix = parse_recipe(
      R"({"test_list": "t --list {fix_tests}", "test_command": "t {} {fix_tests}"})", kFile);
  EXPECT_EQ(by_fix.test_list, "t --list {fix_tests}");
  EXPECT_THAT(recipe_error(R"({"build": "make {fix_tests}"})"), HasSubstr("unknown placeholder {fix_tests}"));
  EXPECT_THAT(recipe_error(R"({"test_list": "t '{fix_tests}'", "test_command": "t {}"})"),
              HasSubstr("outside quotes"));
  EXPECT_THAT(error_of(R"({"name": "demo", "configure": "x", "build": "y", "test_list": "t {fix_tests}",
                           "test_command": "t {}", "backend": "gcov"})"),
              HasSubstr("unknown placeholder {fix_tests}"));
  // A subject names its tests one way or the other.
  EXPECT_THAT(error_of(R"({"name": "demo", "configure": "x", "build": "y"})"),
              HasSubstr("missing field \"test_binary\" (or give test_list and test_command)"));
  EXPECT_THAT(error_of(R"({"name": "demo", "configure": "x", "build": "y", "test_binary": ""})"),
              HasSubstr("test_binary must not be empty (or give test_list and test_command)"));
}

// A project's optional submodules (ncnn's glslang, for Vulkan only) need not be fetched:
// "submodules" names those a checkout fetches; unset is every one, [] none.
TEST(Recipe, SubmodulesNameThePathsToFetchOrNone) {
  EXPECT_FALSE(parse_recipe("{}", kFile).submodules.has_value());
  EXPECT_THAT(parse_recipe(R"({"submodules": []})", kFile).submodules, ::testing::Optional(::testing::IsEmpty()));
  EXPECT_THAT(parse_recipe(R"({"submodules": ["third_party/dep", "gpu"]})", kFile).submodules,
              ::testing::Optional(::testing::ElementsAre("third_party/dep", "gpu")));
  EXPECT_THAT(recipe_error(R"({"submodules": "dep"})"), HasSubstr("field \"submodules\" must be an array of strings"));
  EXPECT_THAT(recipe_error(R"({"submodules": ["../elsewhere"]})"), HasSubstr("submodules: '../elsewhere'"));
  EXPECT_THAT(recipe_error(R"({"submodules": ["/abs"]})"), HasSubstr("submodules: '/abs'"));
  // Passed to git after "--", and still no option.
  EXPECT_THAT(recipe_error(R"({"submodules": ["--force"]})"), HasSubstr("must not start with '-'"));
}

TEST(Recipe, PrepareIsACommandOfRecipesOnly) {
  EXPECT_EQ(parse_recipe("{}", kFile).prepare, "");
  EXPECT_EQ(parse_recipe(R"({"prepare": "sed -i s/a/b/ {source}/x.h"})", kFile).prepare, "sed -i s/a/b/ {source}/x.h");
  EXPECT_THAT(recipe_error(R"({"prepare": ["sed"]})"), HasSubstr("field \"prepare\" must be a string"));
  EXPECT_THAT(recipe_error(R"({"prepare": "touch {nowhere}"})"), HasSubstr("nowhere"));
  EXPECT_THAT(error_of(R"({"name": "s", "configure": "c", "build": "b", "test_binary": "t", "prepare": "true"})"),
              HasSubstr("prepare is known to reproduction recipes only"));
}

// A recipe in a repository cannot know where the user's clones are: "{repos}/FOLDER" in
// url_map is a folder of `bugset reproduce --repos`, resolved there, kept as written here.
TEST(Recipe, UrlMapMayNameAFolderOfTheClonesDirectory) {
  Subject recipe = parse_recipe(R"({"url_map": {"https://x.invalid/a.git": "{repos}/owner+a",
                                                 "https://x.invalid/b.git": "local/b"}})",
                                kFile);
  EXPECT_EQ(recipe.url_map.at("https://x.invalid/a.git"), "{repos}/owner+a");
  EXPECT_EQ(recipe.url_map.at("https://x.invalid/b.git"), (kFile.parent_path() / "local/b").string());
  resolve_repos_placeholder(recipe, "/clones");
  EXPECT_EQ(recipe.url_map.at("https://x.invalid/a.git"), "/clones/owner+a");
  EXPECT_EQ(recipe.url_map.at("https://x.invalid/b.git"), (kFile.parent_path() / "local/b").string());

  for (const char* bad : {"{repos}", "{repos}a", "{repos}/../elsewhere", "{repos}//a", "{repos}/"})
    EXPECT_THAT(recipe_error(std::string(R"({"url_map": {"https://x.invalid/a.git": ")") + bad + R"("}})"),
                HasSubstr("{repos} is followed by /FOLDER"))
        << bad;
  EXPECT_THAT(error_of(R"({"name": "demo", "configure": "x", "build": "y", "test_binary": "t",
                           "url_map": {"https://x.invalid/a.git": "{repos}/a"}})"),
              HasSubstr("{repos} is known to reproduction recipes only"));
}

// url_pin names, per url_map URL, the revision a download's moving branches resolve to
// instead of the bug's date (download_pinning.h), or "none".
TEST(Recipe, UrlPinNamesARevisionOfAMappedUrl) {
  const Subject recipe = parse_recipe(R"({"url_map": {"https://x.invalid/a.git": "a", "https://x.invalid/b.git": "b"},
                                          "url_pin": {"https://x.invalid/a.git": "release-1.8.0",
                                                      "https://x.invalid/b.git": "none"}})",
                                      kFile);
  EXPECT_EQ(recipe.url_pin.at("https://x.invalid/a.git"), "release-1.8.0");
  EXPECT_EQ(recipe.url_pin.at("https://x.invalid/b.git"), "none");
  EXPECT_THAT(recipe_error(R"({"url_map": {"https://x.invalid/a.git": "a"}, "url_pin": {"https://x.invalid/c.git": "v1"}})"),
              HasSubstr("url_pin[\"https://x.invalid/c.git\"]: the URL is not one of url_map's"));
  for (const char* bad : {"--upload-pack=x", "", "a b", "$(x)"})
    EXPECT_THAT(recipe_error(std::string(R"({"url_map": {"u": "a"}, "url_pin": {"u": ")") + bad + R"("}})"),
                HasSubstr("must be a git revision"))
        << bad;
  EXPECT_THAT(error_of(R"({"name": "demo", "configure": "x", "build": "y", "test_binary": "t",
                           "url_map": {"u": "a"}, "url_pin": {"u": "v1"}})"),
              HasSubstr("url_pin is known to reproduction recipes only"));
}

}  // namespace
}  // namespace dlfl::bench
