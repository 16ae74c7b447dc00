// Tests for pinning configure-time downloads to a bug's date: the names a build asks for,
// and the pinned copy's branches (moving ones as of the date, missing ones created,
// tags and other branches untouched, a recipe's url_pin, "none").
#include "dlfl/lab/bench/download_pinning.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "../../support/shell_output.h"
#include "../../support/test_files.h"
#include "dlfl/error.h"
#include "dlfl/lab/bench/download_detection.h"
#include "dlfl/lab/bench/git_clone.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

std::string rev(const fs::path& repo, const std::string& what) {
  const GitResult r = run_git(repo, {"rev-parse", "--verify", "--quiet", what});
  return r.ok ? r.out : "";
}

TEST(DownloadPinning, TheNamesABuildAsksForAreItsGitTagsAndSubmoduleBranches) {
  dlfl::testing::TempDir dir("download-refs");
  dlfl::testing::write_text(dir / "CMakeLists.txt",
                            "FetchContent_Declare(a GIT_REPOSITORY https://x.invalid/a.git GIT_TAG master)\n"
                            "FetchContent_Declare(b GIT_REPOSITORY https://x.invalid/b.git GIT_TAG \"v1.8.x\")\n"
                            "FetchContent_Declare(c GIT_REPOSITORY https://x.invalid/c.git GIT_TAG 0123abcd)\n"
                            "FetchContent_Declare(d GIT_REPOSITORY https://x.invalid/d.git GIT_TAG ${D_TAG})\n"
                            "FetchContent_Declare(e GIT_REPOSITORY https://x.invalid/e.git GIT_TAG master)\n");
  // GoogleTest's download of 2016: a template configure_file() turns into CMakeLists.txt.
  dlfl::testing::write_text(dir / "cmake" / "CMakeLists.txt.in",
                            "ExternalProject_Add(googletest GIT_REPOSITORY https://github.com/google/googletest.git\n"
                            "  GIT_TAG release-1.8.0)\n");
  dlfl::testing::write_text(dir / ".gitmodules", "[submodule \"x\"]\n\tpath = x\n\turl = https://x.invalid/x.git\n"
                                                 "\tbranch = stable\n");
  dlfl::testing::write_text(dir / ".git" / "CMakeLists.txt", "GIT_TAG hidden\n");
  EXPECT_THAT(configure_time_refs(dir.path()), ::testing::UnorderedElementsAre("master", "v1.8.x", "release-1.8.0", "stable"));
  EXPECT_THAT(configure_time_urls(dir.path()), ::testing::Contains("https://github.com/google/googletest.git"));
}

class DownloadPinningClone : public ::testing::Test {
 protected:
  // dep: main with commits of 2020 and 2023, a tag v1 on the first, a branch `stable`
  // at the first.
  void SetUp() override {
    const std::string script =
        "set -e; cd '" + clone().string() + "'; git init -q -b main .; git config user.name t; "
        "git config user.email t@example.org; git config commit.gpgsign false; "
        "echo 1 > f; git add f; GIT_AUTHOR_DATE=2020-01-01T00:00:00Z GIT_COMMITTER_DATE=2020-01-01T00:00:00Z "
        "git commit -q -m one; git tag v1; git branch stable; "
        "echo 2 > f; GIT_AUTHOR_DATE=2023-01-01T00:00:00Z GIT_COMMITTER_DATE=2023-01-01T00:00:00Z git commit -qam two";
    fs::create_directories(clone());
    ASSERT_EQ(std::system(script.c_str()), 0);
    first_ = rev(clone(), "v1");
    last_ = rev(clone(), "main");
    ASSERT_EQ(first_.size(), 40u);
  }
  fs::path clone() const { return dir_ / "dep"; }
  std::map<std::string, std::string> map() const { return {{"https://x.invalid/dep.git", clone().string()}}; }
  dlfl::testing::TempDir dir_{"download-pinning"};
  std::string first_, last_;
};

TEST_F(DownloadPinningClone, MovingAndMissingBranchesResolveToTheCommitAsOfTheDate) {
  const PinnedUrlMap pinned = pin_downloads(map(), {}, "2021-06-01T00:00:00+00:00", {"master", "v1", "rel-2", "stable"},
                                            dir_ / "pins");
  ASSERT_EQ(pinned.pins.size(), 1u);
  const fs::path repo = pinned.url_map.at("https://x.invalid/dep.git");
  EXPECT_NE(repo, clone());
  EXPECT_EQ(rev(repo, "refs/heads/main"), first_);
  EXPECT_EQ(rev(repo, "refs/heads/master"), first_);  // the clone has none: created
  EXPECT_EQ(rev(repo, "refs/heads/rel-2"), first_);   // asked for, missing: created
  EXPECT_EQ(rev(repo, "refs/tags/v1"), first_);       // tags and other branches as they are
  EXPECT_EQ(rev(repo, "refs/heads/stable"), first_);
  EXPECT_EQ(rev(repo, "HEAD"), first_);
  EXPECT_EQ(rev(repo, "refs/tags/dlfl-unpinned/main"), last_);  // the later commits stay reachable
  EXPECT_THAT(pinned.pins[0].refs,
              ElementsAre(Pair("master", first_), Pair("main", first_), Pair("rel-2", first_)));
  EXPECT_EQ(pinned.pins[0].describe(), "https://x.invalid/dep.git: master=" + first_.substr(0, 12) + ", main=" +
                                           first_.substr(0, 12) + ", rel-2=" + first_.substr(0, 12) +
                                           " (as of 2021-06-01T00:00:00+00:00)");
  // The user's clone is untouched.
  EXPECT_EQ(rev(clone(), "refs/heads/main"), last_);
  EXPECT_EQ(rev(clone(), "refs/heads/master"), "");

  // A later date gives the later commit; an earlier one than every commit, the first, saying so.
  EXPECT_EQ(rev(pin_downloads(map(), {}, "2024-01-01", {}, dir_ / "pins").url_map.begin()->second, "refs/heads/main"),
            last_);
  const PinnedUrlMap early = pin_downloads(map(), {}, "2019-01-01", {}, dir_ / "pins");
  EXPECT_EQ(rev(early.url_map.begin()->second, "refs/heads/master"), first_);
  EXPECT_THAT(early.pins[0].rule, HasSubstr("no commit as old as 2019-01-01"));
}

TEST_F(DownloadPinningClone, ARecipeNamesTheRevisionOrNone) {
  const std::string url = "https://x.invalid/dep.git";
  const PinnedUrlMap chosen = pin_downloads(map(), {{url, "v1"}}, "2024-01-01", {}, dir_ / "pins");
  EXPECT_EQ(rev(chosen.url_map.at(url), "refs/heads/main"), first_);
  EXPECT_EQ(rev(chosen.url_map.at(url), "refs/heads/master"), first_);
  EXPECT_EQ(chosen.pins[0].rule, "url_pin v1");

  const PinnedUrlMap none = pin_downloads(map(), {{url, "none"}}, "2021-01-01", {}, dir_ / "pins");
  EXPECT_EQ(none.url_map.at(url), clone().string());
  EXPECT_TRUE(none.pins[0].refs.empty());
  EXPECT_EQ(none.pins[0].describe(), url + ": (none)");

  try {
    (void)pin_downloads(map(), {{url, "v9"}}, "2024-01-01", {}, dir_ / "pins");
    ADD_FAILURE() << "a revision the clone lacks was taken";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("has no commit 'v9' (the recipe's url_pin)"));
    EXPECT_THAT(e.what(), HasSubstr(clone().string()));
  }
  EXPECT_THROW((void)pin_downloads({{url, (dir_ / "absent").string()}}, {}, "2024-01-01", {}, dir_ / "pins"), Error);
}

}  // namespace
}  // namespace dlfl::bench
