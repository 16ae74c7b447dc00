// Where this dlfl's runtime files are: installed next to the executable or in the build tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dlfl::cli {

struct RuntimeLayout {
  std::filesystem::path include_dir;  // holds dlfl_rt/probe.h
  std::filesystem::path lib_dir;      // holds libdlfl_rt.so, libdlfl_rt_gtest.so, libdlfl_crash_dump.so
  std::filesystem::path listener;     // dlfl_rt_gtest_listener.cpp, for builds with their own GoogleTest
  // dlfl_gtest_listener.cmake (beside the listener): compiles it into a CMake project's
  // GoogleTest executables as a CMAKE_PROJECT_INCLUDE.
  std::filesystem::path listener_cmake() const { return listener.parent_path() / "dlfl_gtest_listener.cmake"; }
};

// The linker flags of libdlfl_rt, and with `gtest` of the prebuilt listener
// (`dlfl config --libs [--gtest]`), one word each.
std::vector<std::string> runtime_link_words(const RuntimeLayout& l, bool gtest);

// The CMake arguments that compile the listener into a project's GoogleTest executables
// (`dlfl config --gtest-cmake`), one argument each, unquoted. Throws dlfl::Error when the
// listener's files are missing.
std::vector<std::string> gtest_cmake_arguments(const RuntimeLayout& l);

// Installed (PREFIX/bin/dlfl next to PREFIX/include and PREFIX/lib) or the build tree
// (tools/dlfl/dlfl two levels under the build root, headers in the source tree).
// Throws dlfl::Error naming the places looked at when neither holds the runtime.
RuntimeLayout locate_runtime();

// libdlfl_crash_dump.so of this dlfl (collect's crash handler); empty when it is not there
// (the collector then says so).
std::filesystem::path crash_dump_library();

// The warning for a run that collects many suites and has no crash_dump_library(): the
// collector's own note would be lost among them, and the lost coverage is silent.
std::string crash_dump_missing();

}  // namespace dlfl::cli
