// Tests for `bugset import bugscpp`: a taxonomy folder in BugsC++'s layout read into
// manifest bugs (ground truth from the buggy patch, commands made runnable, patches and
// extra files carried), their lossless manifest round trip (binary extra files too), the
// unified-diff reader it uses, and the refusals of paths that would leave the tree.
#include "dlfl/lab/eval/bugscpp_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "../../support/test_files.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/eval/bugset_names.h"
#include "dlfl/lab/eval/unified_diff.h"

namespace dlfl::eval {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using dlfl::testing::write_text;

// git format-patch output: mail header, a file changed in two hunks, an added file, the
// "-- " signature (which must not be read as a removed line).
const char* const kBuggyPatch =
    "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
    "Subject: [PATCH] buggy\n"
    "\n"
    "---\n"
    " src/a.cpp | 3 +--\n"
    "\n"
    "diff --git a/src/a.cpp b/src/a.cpp\n"
    "index 1111111..2222222 100644\n"
    "--- a/src/a.cpp\n"
    "+++ b/src/a.cpp\n"
    "@@ -2,3 +2,2 @@ int f() {\n"
    " int x = 0;\n"
    "-  check(x);\n"
    "-  return x;\n"
    "+  return x + 1;\n"
    "@@ -10,2 +9,3 @@ int g() {\n"
    " a();\n"
    "+b();\n"
    " c();\n"
    "\\ No newline at end of file\n"
    "diff --git a/src/new.h b/src/new.h\n"
    "new file mode 100644\n"
    "index 0000000..3333333\n"
    "--- /dev/null\n"
    "+++ b/src/new.h\n"
    "@@ -0,0 +1,2 @@\n"
    "+#pragma once\n"
    "+int h();\n"
    "-- \n"
    "2.39.5\n";

const char* const kMeta = R"({
  "info": {"url": "https://github.com/acme/widget.git", "short-desc": "w", "vcs": "git"},
  "common": {
    "build": {"commands": [{"type": "docker", "lines": ["bash -c 'rm -rf build'",
        "@DPP_COMPILATION_DB_TOOL@ make -j@DPP_PARALLEL_BUILD@ all"]}]},
    "build-coverage": {"commands": [{"type": "docker", "lines": [
        "bash -c 'cmake -B build . -DCMAKE_CXX_FLAGS=\"--coverage -O0\"'",
        "bash -c 'cd build; make -j @DPP_PARALLEL_BUILD@'"]}]},
    "test": {"commands": [{"type": "docker", "lines": [
        "bash -c 'index=$(cat DPP_TEST_INDEX); /home/workspace/build/t --gtest_filter=\"$(sed -n ${index}p .dpp/test_list)\"'"]}]},
    "test-coverage": {"commands": [{"type": "docker", "lines": [
        "bash -c \"index=$(cat DPP_TEST_INDEX); ./run \\\"$(sed -n ${index}p list)\\\"\""]}]}
  },
  "defects": [
    {"id": 1, "hash": "aaaa", "num_cases": 5, "case": [4, 2], "tags": ["memory-error"],
     "description": "off by one"},
    {"id": 2, "hash": "bbbb", "num_cases": 3, "case": [3], "tags": [], "description": "crash",
     "extra_tests": [[{"type": "docker", "lines": ["bash -c \"build/bin/w .dpp/poc\""], "is_pass": false}]]}
  ]
})";

class BugsCppImport : public ::testing::Test {
 protected:
  void SetUp() override {
    write_text(project() / "meta.json", kMeta);
    write_text(project() / "patch" / "0001-buggy.patch", kBuggyPatch);
    write_text(project() / "patch" / "0001-common.patch", "diff --git a/CMakeLists.txt b/CMakeLists.txt\n");
    write_text(project() / "extra" / "0001" / ".dpp" / "test_list", "A.x\nA.y\n");
    write_text(project() / "patch" / "0002-buggy.patch",
               "--- a/w.c\n+++ b/w.c\n@@ -1 +1 @@\n-int w = 1;\n+int w = 2;\n");
    write_text(project() / "extra" / "0002" / ".dpp" / "poc", std::string("\x89PNG\0\xff", 6));
  }
  fs::path taxonomy() const { return dir_ / "bugscpp" / "taxonomy"; }
  fs::path project() const { return taxonomy() / "widget"; }

  dlfl::testing::TempDir dir_{"bugscpp-import"};
};

TEST_F(BugsCppImport, ReadsEachDefectWithTheBuggyPatchAsTheFixReversed) {
  const std::vector<BugReport> bugs = import_bugscpp(dir_.path());  // the checkout
  ASSERT_EQ(bugs.size(), 2u);
  const BugReport& bug = bugs[0];
  EXPECT_EQ(bug.id, "widget#1");
  EXPECT_EQ(bug.project, "widget");
  EXPECT_EQ(bug.number, "1");
  EXPECT_EQ(bug.category, "traditional");
  EXPECT_EQ(bug.fix_commit, "aaaa");
  EXPECT_EQ(bug.title, "off by one");
  ASSERT_EQ(bug.files.size(), 2u);
  // The patch's '+' lines (buggy numbering) are the lines the fix deletes; its '-' lines
  // (fixed numbering) those it adds.
  EXPECT_EQ(bug.files[0].old_name, "src/a.cpp");
  EXPECT_EQ(bug.files[0].new_name, "src/a.cpp");
  EXPECT_EQ(bug.files[0].change_type, ChangeType::modify);
  EXPECT_THAT(bug.files[0].deleted_lines, ElementsAre(3u, 10u));
  EXPECT_THAT(bug.files[0].added_lines, ElementsAre(3u, 4u));
  // A file the buggy patch creates is one the fix deletes.
  EXPECT_EQ(bug.files[1].old_name, "src/new.h");
  EXPECT_EQ(bug.files[1].new_name, "");
  EXPECT_EQ(bug.files[1].change_type, ChangeType::delete_);
  EXPECT_THAT(bug.files[1].deleted_lines, ElementsAre(1u, 2u));
  std::vector<std::string> truth;
  for (const auto& item : ground_truth(bug)) truth.push_back(to_string(item));
  EXPECT_THAT(truth, ElementsAre("src/a.cpp:3", "src/a.cpp:10", "src/new.h:1", "src/new.h:2"));

  ASSERT_TRUE(bug.bugscpp);
  const BugsCppDefect& d = *bug.bugscpp;
  EXPECT_EQ(d.url, "https://github.com/acme/widget.git");
  EXPECT_EQ(d.index, 1u);
  EXPECT_EQ(d.num_cases, 5u);
  EXPECT_THAT(d.cases, ElementsAre(2u, 4u));
  EXPECT_THAT(d.tags, ElementsAre("memory-error"));
  EXPECT_THAT(d.build, ElementsAre("rm -rf build", "make -j{jobs} all"));
  EXPECT_THAT(d.build_coverage, ElementsAre("cmake -B build . -DCMAKE_CXX_FLAGS=\"--coverage -O0\"", "cd build; make -j {jobs}"));
  EXPECT_THAT(d.test, ElementsAre("index=$(cat DPP_TEST_INDEX); {source}/build/t --gtest_filter=\"$(sed -n ${index}p .dpp/test_list)\""));
  EXPECT_THAT(d.test_coverage, ElementsAre("index=$(cat DPP_TEST_INDEX); ./run \"$(sed -n ${index}p list)\""));
  EXPECT_EQ(d.buggy_patch.path, "0001-buggy.patch");
  EXPECT_EQ(d.buggy_patch.content, kBuggyPatch);
  EXPECT_EQ(d.common_patch.path, "0001-common.patch");
  EXPECT_EQ(d.fixed_patch.path, "");
  ASSERT_EQ(d.extra_files.size(), 1u);
  EXPECT_EQ(d.extra_files[0], (BugsCppFile{".dpp/test_list", "A.x\nA.y\n"}));

  const BugsCppDefect& d2 = *bugs[1].bugscpp;
  EXPECT_EQ(d2.index, 2u);
  ASSERT_EQ(d2.extra_tests.size(), 1u);
  EXPECT_THAT(d2.extra_tests[0], ElementsAre("build/bin/w .dpp/poc"));
  EXPECT_EQ(bugs[1].files.at(0).change_type, ChangeType::modify);
  EXPECT_THAT(bugs[1].files[0].deleted_lines, ElementsAre(1u));

  // The taxonomy folder itself reads the same.
  EXPECT_EQ(import_bugscpp(taxonomy()).size(), 2u);
}

TEST_F(BugsCppImport, ManifestRoundTripKeepsEverythingIncludingBinaryExtraFiles) {
  const std::vector<BugReport> bugs = import_bugscpp(taxonomy());
  std::stringstream stream;
  write_manifest(stream, bugs);
  const std::string text = stream.str();
  EXPECT_THAT(text, HasSubstr("\"bugscpp\":{\"url\":\"https://github.com/acme/widget.git\""));
  EXPECT_THAT(text, HasSubstr("{\"path\":\".dpp/poc\",\"base64\":\"iVBORwD/\"}"));
  const std::vector<BugReport> back = read_manifest(stream, "m.jsonl");
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t k = 0; k < bugs.size(); ++k) {
    ASSERT_TRUE(back[k].bugscpp);
    EXPECT_EQ(*back[k].bugscpp, *bugs[k].bugscpp);
    EXPECT_EQ(manifest_line(back[k]), manifest_line(bugs[k]));
  }
  EXPECT_EQ(back[1].bugscpp->extra_files.at(0).content, std::string("\x89PNG\0\xff", 6));
  // Manifests without the member stay valid and get none.
  std::istringstream plain(R"({"id": "o+r#1", "project": "o+r", "files": []})" "\n");
  EXPECT_FALSE(read_manifest(plain, "plain.jsonl").at(0).bugscpp);
}

TEST_F(BugsCppImport, RefusesPathsLeavingTheTree) {
  write_text(project() / "patch" / "0002-buggy.patch", "--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n");
  try {
    import_bugscpp(taxonomy());
    FAIL() << "a patch path with '..' was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), (project() / "patch" / "0002-buggy.patch").string());
    EXPECT_EQ(e.line(), 1u);
    EXPECT_THAT(e.what(), HasSubstr("\"../../etc/passwd\" is not inside the tree"));
  }
  // An extra file path in a manifest is checked again when it is read.
  std::stringstream stream;
  write_text(project() / "patch" / "0002-buggy.patch", "--- a/w.c\n+++ b/w.c\n@@ -1 +1 @@\n-a\n+b\n");
  write_manifest(stream, import_bugscpp(taxonomy()));
  std::string text = stream.str();
  const std::string good = "\"path\":\".dpp/test_list\"";
  text.replace(text.find(good), good.size(), "\"path\":\"/etc/cron.d/x\"");
  std::istringstream bad(text);
  EXPECT_THROW(
      {
        try {
          read_manifest(bad, "m.jsonl");
        } catch (const Error& e) {
          EXPECT_STREQ(e.what(), "m.jsonl:1: \"bugscpp\": extra file path \"/etc/cron.d/x\" is not inside the tree "
                                 "(absolute, or with '..')");
          throw;
        }
      },
      Error);
  EXPECT_FALSE(repository_path_problem("a/../b").empty());
  EXPECT_FALSE(repository_path_problem("/a").empty());
  EXPECT_FALSE(repository_path_problem("a//b").empty());
  EXPECT_TRUE(repository_path_problem(".dpp/test_list").empty());
}

// A symbolic link among the taxonomy's folders is refused: a planted `patch/` or `extra/`
// would make a manifest of files from outside the checkout.
TEST_F(BugsCppImport, RefusesSymlinkedPatchAndExtraFolders) {
  const fs::path elsewhere = dir_ / "elsewhere";
  fs::create_directories(elsewhere);
  fs::rename(project() / "patch", elsewhere / "patch-moved");
  fs::create_directory_symlink(elsewhere / "patch-moved", project() / "patch");
  try {
    import_bugscpp(taxonomy());
    FAIL() << "a symlinked patch folder was followed";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), (project() / "patch").string());
    EXPECT_THAT(e.what(), HasSubstr("a symbolic link, not the patch folder"));
  }
  fs::remove(project() / "patch");
  fs::rename(elsewhere / "patch-moved", project() / "patch");
  fs::rename(project() / "extra" / "0001", elsewhere / "0001");
  fs::create_directory_symlink(elsewhere / "0001", project() / "extra" / "0001");
  EXPECT_THROW(import_bugscpp(taxonomy()), Error);
  fs::remove(project() / "extra" / "0001");
  fs::rename(project() / "extra", elsewhere / "extra");
  fs::create_directory_symlink(elsewhere / "extra", project() / "extra");
  EXPECT_THROW(import_bugscpp(taxonomy()), Error);
}

TEST_F(BugsCppImport, MalformedMetaAndMissingPatchNameTheFile) {
  write_text(project() / "meta.json", R"({"info": {"url": "u"}, "common": {}, "defects": []})");
  try {
    import_bugscpp(taxonomy());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), (project() / "meta.json").string());
    EXPECT_THAT(e.what(), HasSubstr("\"common\" has no \"build\""));
  }
  write_text(project() / "meta.json", kMeta);
  fs::remove(project() / "patch" / "0002-buggy.patch");
  EXPECT_THROW(import_bugscpp(taxonomy()), Error);
  std::string meta = kMeta;
  meta.replace(meta.find("[4, 2]"), 6, "[6]");
  write_text(project() / "meta.json", meta);
  try {
    import_bugscpp(taxonomy());
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("defect 1's case 6 is outside 1..5"));
  }
  EXPECT_THROW(import_bugscpp(dir_ / "nothing"), Error);
}

TEST(UnifiedDiff, HunkCutShortIsAnError) {
  try {
    parse_unified_diff("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n", "p.patch");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "p.patch:5: the hunk starting at line 3 is cut short");
  }
  EXPECT_THROW(parse_unified_diff("--- a/x\n+++ b/x\n@@ -1,x +1 @@\n", "p.patch"), Error);
  const auto files = parse_unified_diff("diff --git a/old.c b/new.c\nsimilarity index 100%\nrename from old.c\nrename to new.c\n", "r");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].old_path, "old.c");
  EXPECT_EQ(files[0].new_path, "new.c");
}

TEST(BugsCppCommandLine, UnwrapsShellLinesAndMapsVariables) {
  EXPECT_EQ(bugscpp_command_line("bash -c 'cd build; make -j @DPP_PARALLEL_BUILD@'"), "cd build; make -j {jobs}");
  EXPECT_EQ(bugscpp_command_line("sh -c \"echo \\\"a  b\\\"\""), "echo \"a b\"");  // words joined as BugsC++ does
  EXPECT_EQ(bugscpp_command_line("./configure --prefix=/home/workspace/install"), "./configure --prefix={source}/install");
  EXPECT_EQ(bugscpp_command_line("bash -c 'a' 'b'"), "bash -c 'a' 'b'");  // not one script: run as written
  EXPECT_EQ(bugscpp_command_line("bash -c 'unclosed"), std::nullopt);
}

}  // namespace
}  // namespace dlfl::eval
