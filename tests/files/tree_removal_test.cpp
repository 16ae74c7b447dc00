// remove_tree: a tree dlfl made goes, a link planted in it or in its place is unlinked or
// left, and what a link points to is never touched.
#include "dlfl/files/tree_removal.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "../support/test_files.h"

namespace dlfl::io {
namespace {

namespace fs = std::filesystem;

TEST(TreeRemoval, RemovesATreeWithoutFollowingTheLinksInIt) {
  testing::TempDir dir("tree-removal");
  const fs::path victim = dir.path() / "victim";
  fs::create_directories(victim / "deep");
  testing::write_text(victim / "deep" / "precious", "keep me");
  const fs::path tree = dir.path() / "tree";
  fs::create_directories(tree / "a" / "b" / "c");
  testing::write_text(tree / "a" / "b" / "c" / "f", "x");
  testing::write_text(tree / "top", "x");
  fs::create_directory_symlink(victim, tree / "a" / "link-to-dir");
  fs::create_symlink(victim / "deep" / "precious", tree / "a" / "b" / "link-to-file");
  ::mkfifo((tree / "fifo").c_str(), 0600);
  std::error_code ec;
  EXPECT_EQ(remove_tree(tree, ec), TreeRemoval::removed) << ec.message();
  EXPECT_FALSE(fs::exists(fs::symlink_status(tree)));
  EXPECT_EQ(testing::slurp(victim / "deep" / "precious"), "keep me");
  EXPECT_EQ(remove_tree(tree, ec), TreeRemoval::absent);
}

TEST(TreeRemoval, ALinkInThePlaceOfTheTreeIsLeftAndItsTargetUntouched) {
  testing::TempDir dir("tree-removal");
  const fs::path victim = dir.path() / "home";
  fs::create_directories(victim);
  testing::write_text(victim / "thesis.tex", "years of work");
  const fs::path work = dir.path() / "work";
  fs::create_directory_symlink(victim, work);
  std::error_code ec;
  EXPECT_EQ(remove_tree(work, ec), TreeRemoval::link);
  EXPECT_TRUE(fs::is_symlink(work));
  EXPECT_EQ(testing::slurp(victim / "thesis.tex"), "years of work");
  // A file where a tree was expected is not removed either.
  testing::write_text(dir.path() / "file", "x");
  EXPECT_EQ(remove_tree(dir.path() / "file", ec), TreeRemoval::link);
  EXPECT_TRUE(fs::exists(dir.path() / "file"));
}

}  // namespace
}  // namespace dlfl::io
