// Tests for finding a project's clone: remote URLs naming owner/repo, and the lookup.
#include "dlfl/lab/bench/git_clone.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../../support/test_files.h"
#include "dlfl/error.h"

namespace dlfl::bench {
namespace {

TEST(GitClone, RemoteUrlsNameOwnerAndRepository) {
  for (const char* url : {"https://github.com/apache/incubator-mxnet.git", "https://github.com/Apache/Incubator-MXNet",
                          "git@github.com:apache/incubator-mxnet.git", "ssh://git@github.com/apache/incubator-mxnet/"})
    EXPECT_TRUE(remote_names_project(url, "apache+incubator-mxnet")) << url;
  for (const char* url : {"https://github.com/apache/mxnet.git", "https://github.com/xapache/incubator-mxnet.git",
                          "https://github.com/other/incubator-mxnet"})
    EXPECT_FALSE(remote_names_project(url, "apache+incubator-mxnet")) << url;
  EXPECT_FALSE(remote_names_project("https://github.com/a/b", "no-plus"));
}

TEST(GitClone, FindsTheCloneByProjectNameAndWarnsAboutOtherRemotes) {
  dlfl::testing::TempDir dir("git-clone");
  ASSERT_EQ(std::system(("git init -q " + (dir / "owner/repo").string() + " && git init -q " +
                         (dir / "elsewhere").string() + " && git -C " + (dir / "elsewhere").string() +
                         " remote add origin https://github.com/someone/else.git")
                            .c_str()),
            0);
  EXPECT_EQ(GitClone::find(dir.path(), "owner+repo").dir(), dir / "owner/repo");
  EXPECT_THROW(GitClone::find(dir.path(), "owner+missing"), Error);  // no clone, and dir itself is none
  EXPECT_EQ(GitClone::find(dir.path(), "owner+repo").remote_warning(), "");  // no remote at all
  // A mirror, a fork or an offline copy: taken, with a warning (the fix commits decide).
  const GitClone mirror = GitClone::find(dir / "elsewhere", "owner+repo");
  EXPECT_EQ(mirror.dir(), dir / "elsewhere");
  EXPECT_THAT(mirror.remote_warning(), ::testing::HasSubstr("(https://github.com/someone/else.git) do not name owner+repo"));
}

}  // namespace
}  // namespace dlfl::bench
