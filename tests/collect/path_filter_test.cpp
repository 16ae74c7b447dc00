// PathFilter: source root, exclude globs, system headers, normalization and symlinks.
#include "dlfl/collect/path_filter.h"

#include <gtest/gtest.h>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

TEST(PathFilter, WithoutARootKeepsAbsolutePathsButSystemHeaders) {
  const PathFilter f({});
  EXPECT_EQ(f.map("/proj/src/a.cpp"), "/proj/src/a.cpp");
  EXPECT_EQ(f.map("/usr/include/c++/12/bits/stl_vector.h"), std::nullopt);
  EXPECT_EQ(f.map("/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h"), std::nullopt);
  EXPECT_EQ(f.map("/usr/local/include/gtest/gtest.h"), std::nullopt);
  PathFilterOptions keep;
  keep.include_system = true;
  EXPECT_EQ(PathFilter(keep).map("/usr/include/stdio.h"), "/usr/include/stdio.h");
}

TEST(PathFilter, RelativePathsResolveAgainstTheCompilationDirectory) {
  const PathFilter f({});
  EXPECT_EQ(f.map("../src/./a.cpp", "/proj/build"), "/proj/src/a.cpp");
  EXPECT_EQ(f.map("/proj/x/../y.cpp", "/elsewhere"), "/proj/y.cpp");
}

TEST(PathFilter, RootMakesPathsRelativeAndDropsOutsiders) {
  testing::TempDir dir;
  fs::create_directories(dir / "proj/src");
  fs::create_directories(dir / "proj/tests");
  PathFilterOptions o;
  o.source_root = dir / "proj";
  o.excludes = {"*/tests/*", "*_gen.cpp"};
  const PathFilter f(o);
  const std::string root = fs::canonical(dir / "proj").string();
  EXPECT_EQ(f.map(root + "/src/a.cpp"), "src/a.cpp");
  EXPECT_EQ(f.map("src/a.cpp", root), "src/a.cpp");
  EXPECT_EQ(f.map(root + "/tests/a_test.cpp"), std::nullopt);      // '*/tests/*' on "/tests/..."
  EXPECT_EQ(f.map(root + "/src/tests/helper.h"), std::nullopt);    // and deeper ones
  EXPECT_EQ(f.map(root + "/src/parser_gen.cpp"), std::nullopt);
  EXPECT_EQ(f.map(root + "-other/src/a.cpp"), std::nullopt);       // a sibling, not inside
  EXPECT_EQ(f.map("/usr/include/vector"), std::nullopt);
}

TEST(PathFilter, RootInsideATestsDirectoryIsNotExcludedByItsOwnPath) {
  // The patterns see the root-relative path, so `*/tests/*` does not match a root that
  // lives under some tests/ directory (as dlfl's own fixtures do).
  testing::TempDir dir;
  fs::create_directories(dir / "tests/fixture/src");
  PathFilterOptions o;
  o.source_root = dir / "tests/fixture";
  o.excludes = {"*/tests/*"};
  const PathFilter f(o);
  EXPECT_EQ(f.map(fs::canonical(dir / "tests/fixture").string() + "/src/a.cpp"), "src/a.cpp");
}

TEST(PathFilter, SymlinkedRootMatchesRealPaths) {
  testing::TempDir dir;
  fs::create_directories(dir / "real/src");
  testing::write_text(dir / "real/src/a.cpp", "int x;\n");
  fs::create_directory_symlink(dir / "real", dir / "link");
  PathFilterOptions o;
  o.source_root = dir / "link";
  const PathFilter f(o);
  EXPECT_EQ(f.map((dir / "real/src/a.cpp").string()), "src/a.cpp");
  EXPECT_EQ(f.map((dir / "link/src/a.cpp").string()), "src/a.cpp");
}

TEST(PathFilter, MissingRootIsAnError) {
  PathFilterOptions o;
  o.source_root = "/nonexistent/dlfl/root";
  EXPECT_THROW(PathFilter{o}, Error);
}

TEST(PathFilter, AbsolutePatternsWithoutARoot) {
  PathFilterOptions o;
  o.excludes = {"/opt/vendor/*", "*/third_party/*"};
  const PathFilter f(o);
  EXPECT_TRUE(f.excluded("/opt/vendor/lib.h"));
  EXPECT_TRUE(f.excluded("/proj/third_party/x/y.cpp"));
  EXPECT_FALSE(f.excluded("/proj/src/y.cpp"));
}

}  // namespace
}  // namespace dlfl::collect
