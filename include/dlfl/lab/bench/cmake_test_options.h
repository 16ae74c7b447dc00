// What a CMake project offers to turn its tests on, for the generic recipe and for the
// runtime backend's message when a configure wrote no compilation database.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::bench {

// True for an option name that says it enables tests: BUILD_TESTS, FOO_BUILD_TESTS,
// BUILD_TESTING, ENABLE_TESTS, WITH_TEST; not DISABLE_TESTS, SKIP_TESTS, NO_TESTS.
bool names_a_test_option(std::string_view name);

// The test options the project itself declares (option() and cmake_dependent_option() in
// the top-level CMakeLists.txt and the CMake files under cmake/ or CMake/), in order of
// appearance, without duplicates. Options of vendored projects (a subdirectory's own
// CMakeLists.txt, third_party/) are left out: turning on GoogleTest's own tests is no
// part of reproducing a bug. A file that cannot be read is skipped.
std::vector<std::string> cmake_test_options(const std::filesystem::path& source);

// The BOOL entries of a CMake cache (BUILD/CMakeCache.txt) whose names say they enable
// tests and that are OFF: what the configure saw but did not turn on. Empty when there is
// no cache.
std::vector<std::string> cached_test_options_off(const std::filesystem::path& build);

// One line for a configure that wrote no compile_commands.json into `build`: the cause
// (no CMake cache: not a CMake configure; else no C/C++ target) and the test options a
// recipe could turn on with "cmake_args".
std::string missing_compile_database_reason(const std::filesystem::path& build);

}  // namespace dlfl::bench
