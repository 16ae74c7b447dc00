// Worker copies of a subject: what sync_tree copies, keeps and leaves out, and seeding.
#include "dlfl/lab/bench/work_tree.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "../../support/test_files.h"
#include "dlfl/error.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using dlfl::testing::slurp;
using dlfl::testing::TempDir;

TEST(SyncTree, CopiesSourcesWithTheirPermissionsAndLeavesOutGitAndBuildDirectories) {
  TempDir dir("bench-sync");
  const fs::path from = dir / "from", to = dir / "to";
  dlfl::testing::write_text(from / "src" / "a.cpp", "int a;\n");
  dlfl::testing::write_text(from / "gen.sh", "#!/bin/sh\necho hi\n");
  fs::permissions(from / "gen.sh", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  dlfl::testing::write_text(from / ".git" / "HEAD", "ref: refs/heads/main\n");
  dlfl::testing::write_text(from / "build" / "CMakeCache.txt", "# in-source build\n");
  dlfl::testing::write_text(from / "build" / "obj.o", "x");

  sync_tree(from, to);
  EXPECT_EQ(slurp(to / "src" / "a.cpp"), "int a;\n");
  EXPECT_EQ(slurp(to / "gen.sh"), "#!/bin/sh\necho hi\n");
  EXPECT_EQ(fs::status(to / "gen.sh").permissions(), fs::status(from / "gen.sh").permissions());
  EXPECT_FALSE(fs::exists(to / ".git"));
  EXPECT_FALSE(fs::exists(to / "build"));

  // A file left mutated (a killed run) is put back; one only in `to` stays.
  dlfl::testing::write_text(to / "src" / "a.cpp", "int a = 1;\n");
  dlfl::testing::write_text(to / "extra.txt", "mine\n");
  sync_tree(from, to);
  EXPECT_EQ(slurp(to / "src" / "a.cpp"), "int a;\n");
  EXPECT_EQ(slurp(to / "extra.txt"), "mine\n");
}

TEST(SeededFile, RestoresTheFileWhenDestroyed) {
  TempDir dir("bench-seed");
  dlfl::testing::write_text(dir / "a.cpp", "x < y\n");
  {
    SeededFile seeded(dir / "a.cpp", "x <= y\n");
    EXPECT_EQ(slurp(dir / "a.cpp"), "x <= y\n");
  }
  EXPECT_EQ(slurp(dir / "a.cpp"), "x < y\n");
}

// Paths from a bug manifest: removed only once proven inside the work tree.
TEST(PathInside, TakesRelativePathsInsideTheRootAndRefusesEverythingElse) {
  TempDir dir("path-inside");
  const fs::path root = dir / "tree";
  dlfl::testing::write_text(root / "tests" / "a_test.cpp", "x");
  dlfl::testing::write_text(dir / "outside" / "notes_test.txt", "keep");
  EXPECT_EQ(path_inside(root, "tests/a_test.cpp", "f"), root / "tests" / "a_test.cpp");
  EXPECT_EQ(path_inside(root, "tests/new/b_test.cpp", "f"), root / "tests" / "new" / "b_test.cpp");
  for (const char* bad : {"tests/../../outside/notes_test.txt", "/etc/passwd", "", "tests//a_test.cpp", "./a",
                          "tests/..", "a\nb"}) {
    try {
      (void)path_inside(root, bad, "bug x#1: deleted test file");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("bug x#1: deleted test file \"", 0), 0u) << e.what();
    }
  }
  // A link in the repository that leads out of it.
  fs::create_directory_symlink(dir / "outside", root / "linked");
  EXPECT_THROW((void)path_inside(root, "linked/notes_test.txt", "f"), Error);
  EXPECT_THROW((void)path_inside(root, "linked/deeper/x_test.cpp", "f"), Error);
  // The link itself may be named (removing it removes the link, not what it points to).
  EXPECT_EQ(path_inside(root, "linked", "f"), root / "linked");
  EXPECT_EQ(slurp(dir / "outside" / "notes_test.txt"), "keep");
}

}  // namespace
}  // namespace dlfl::bench
