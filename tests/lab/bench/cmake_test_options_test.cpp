// A CMake project's test options: found in its own CMake files (not a vendored project's),
// read back from a cache, and the one line said when a configure wrote no compilation
// database.
#include "dlfl/lab/bench/cmake_test_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../../support/test_files.h"

namespace dlfl::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CmakeTestOptions, NamesThatSayTheyEnableTests) {
  for (const char* name : {"BUILD_TESTS", "FOO_BUILD_TESTS", "BUILD_TESTING", "ENABLE_TESTS", "with_test"})
    EXPECT_TRUE(names_a_test_option(name)) << name;
  for (const char* name : {"BUILD_SHARED_LIBS", "DISABLE_TESTS", "SKIP_TESTS", "FOO_NO_TESTS", "USE_CUDA"})
    EXPECT_FALSE(names_a_test_option(name)) << name;
}

TEST(CmakeTestOptions, TheProjectsOwnOptionsInOrderNotAVendoredProjects) {
  testing::TempDir dir;
  testing::write_text(dir / "CMakeLists.txt", "project(x CXX)\noption(FOO_BUILD_TESTS \"tests\" OFF)\n"
                                              "OPTION (BUILD_SHARED_LIBS \"\" OFF)\nif(FOO_BUILD_TESTS)\n"
                                              "  add_subdirectory(third_party/gtest)\nendif()\n"
                                              "# option(FOO_BUILD_TESTS) twice is once\noption(FOO_BUILD_TESTS \"\" OFF)\n");
  testing::write_text(dir / "cmake" / "options.cmake",
                      "cmake_dependent_option(FOO_TEST_CUDA \"\" ON \"USE_CUDA\" OFF)\noption(FOO_SKIP_TESTS \"\" OFF)\n");
  testing::write_text(dir / "third_party" / "gtest" / "CMakeLists.txt", "option(gtest_build_tests \"\" OFF)\n");
  EXPECT_THAT(cmake_test_options(dir.path()), ElementsAre("FOO_BUILD_TESTS", "FOO_TEST_CUDA"));
  EXPECT_TRUE(cmake_test_options(dir / "nowhere").empty());
}

TEST(CmakeTestOptions, NoCompileDatabaseSaysWhyInOneLine) {
  testing::TempDir dir;
  EXPECT_THAT(missing_compile_database_reason(dir.path()), HasSubstr("no CMake cache"));
  testing::write_text(dir / "CMakeCache.txt",
                      "//Build the tests\nBUILD_TESTS:BOOL=OFF\nBUILD_TESTING:BOOL=ON\nCMAKE_BUILD_TYPE:STRING=Debug\n");
  EXPECT_THAT(cached_test_options_off(dir.path()), ElementsAre("BUILD_TESTS"));
  const std::string reason = missing_compile_database_reason(dir.path());
  EXPECT_EQ(reason,
            "the configure step wrote no compile_commands.json: no C/C++ target was configured; options that look like "
            "they enable tests: BUILD_TESTS (turn one on with the recipe's \"cmake_args\": [\"-DBUILD_TESTS=ON\"])");
  EXPECT_EQ(reason.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace dlfl::bench
