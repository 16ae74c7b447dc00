// `dlfl config --libs --gtest` in README's runtime workflow: the flags go into
// CMAKE_EXE_LINKER_FLAGS, i.e. into every program CMake links, its C configure checks
// and the project's C programs too. They must link as in a plain build, and the gtest
// program must still have its tests bracketed by the listener.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A CMake project with a C configure check, a C program and a GoogleTest program.
void write_project(const TempDir& dir) {
  write_text(dir / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.20)
project(x C CXX)
include(CheckCSourceCompiles)
check_c_source_compiles("int main(void) { return 0; }" X_C_PROGRAM_LINKS)
if(NOT X_C_PROGRAM_LINKS)
  message(FATAL_ERROR "a C check does not link with CMAKE_EXE_LINKER_FLAGS")
endif()
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
find_package(GTest REQUIRED)
add_executable(c_tool tool.c)
target_link_libraries(c_tool PRIVATE Threads::Threads)
add_executable(x_tests x_test.cpp)
target_link_libraries(x_tests PRIVATE GTest::gtest_main Threads::Threads)
)");
  write_text(dir / "tool.c", "int main(void) { return 0; }\n");
  write_text(dir / "x_test.cpp", "#include <gtest/gtest.h>\nTEST(X, Works) { EXPECT_EQ(1 + 1, 2); }\n");
}

TEST(ConfigLinkFlags, CChecksAndCProgramsLinkAndTheGtestProgramIsBracketed) {
  TempDir dir("config-link");
  write_project(dir);
  const std::string dlfl = DLFL_BINARY;
  const RunResult configured =
      run_command("(cmake -S " + dir.path().string() + " -B " + (dir / "build").string() +
                  " -DCMAKE_EXE_LINKER_FLAGS=\"$(" + dlfl + " config --libs --gtest)\" && cmake --build " +
                  (dir / "build").string() + " -j2)");
  ASSERT_EQ(configured.exit_code, 0) << configured.out << configured.err;
  EXPECT_THAT(slurp(dir / "build" / "CMakeCache.txt"), HasSubstr("X_C_PROGRAM_LINKS:INTERNAL=1"));
  EXPECT_EQ(run_command((dir / "build" / "c_tool").string()).exit_code, 0);
  // The listener registered itself: the runtime's file names the test it bracketed.
  const RunResult ran =
      run_command("DLFL_RT_FILE=" + (dir / "x.map").string() + " " + (dir / "build" / "x_tests").string());
  ASSERT_EQ(ran.exit_code, 0) << ran.out << ran.err;
  EXPECT_THAT(slurp(dir / "x.map"), HasSubstr("X.Works"));
}

// `dlfl config --gtest-cmake`: the listener's source compiled into the executables that
// link GoogleTest, against the project's own GoogleTest, with only libdlfl_rt linked.
TEST(ConfigLinkFlags, GtestCmakeCompilesTheListenerIntoTheGtestProgramOnly) {
  TempDir dir("config-cmake");
  write_project(dir);
  const std::string dlfl = DLFL_BINARY;
  const RunResult configured =
      run_command("(cmake -S " + dir.path().string() + " -B " + (dir / "build").string() + " $(" + dlfl +
                  " config --gtest-cmake) -DCMAKE_EXE_LINKER_FLAGS=\"$(" + dlfl + " config --libs)\" && cmake --build " +
                  (dir / "build").string() + " -j2)");
  ASSERT_EQ(configured.exit_code, 0) << configured.out << configured.err;
  EXPECT_THAT(configured.out, HasSubstr("dlfl: GoogleTest listener compiled into x_tests\n"));
  EXPECT_THAT(configured.out + configured.err, Not(HasSubstr("not used by the project")));
  EXPECT_THAT(slurp(dir / "build" / "CMakeCache.txt"), HasSubstr("X_C_PROGRAM_LINKS:INTERNAL=1"));
  EXPECT_EQ(run_command((dir / "build" / "c_tool").string()).exit_code, 0);
  EXPECT_THAT(run_command("nm " + (dir / "build" / "c_tool").string()).out, Not(HasSubstr("dlfl_rt_gtest_listener_linked")));
  EXPECT_THAT(run_command("nm " + (dir / "build" / "x_tests").string()).out, HasSubstr("dlfl_rt_gtest_listener_linked"));
  const RunResult ran =
      run_command("DLFL_RT_FILE=" + (dir / "x.map").string() + " " + (dir / "build" / "x_tests").string());
  ASSERT_EQ(ran.exit_code, 0) << ran.out << ran.err;
  EXPECT_THAT(slurp(dir / "x.map"), HasSubstr("X.Works"));
}

}  // namespace
}  // namespace dlfl::testing
