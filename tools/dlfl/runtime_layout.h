// Where this dlfl's runtime files are: installed next to the executable or in the build tree.
#pragma once

#include <filesystem>

namespace dlfl::cli {

struct RuntimeLayout {
  std::filesystem::path include_dir;  // holds dlfl_rt/probe.h
  std::filesystem::path lib_dir;      // holds libdlfl_rt.so, libdlfl_rt_gtest.so, libdlfl_crash_dump.so
  std::filesystem::path listener;     // dlfl_rt_gtest_listener.cpp, for builds with their own GoogleTest
};

// Installed (PREFIX/bin/dlfl next to PREFIX/include and PREFIX/lib) or the build tree
// (tools/dlfl/dlfl two levels under the build root, headers in the source tree).
// Throws dlfl::Error naming the places looked at when neither holds the runtime.
RuntimeLayout locate_runtime();

// libdlfl_crash_dump.so of this dlfl (collect's crash handler); empty when it is not there
// (the collector then says so).
std::filesystem::path crash_dump_library();

}  // namespace dlfl::cli
