// CrashDumpPlan: whether dlfl's crash handler goes into the tests of a gcov/LLVM collection.
//
// gcov and LLVM's profile runtime write a test's coverage at exit, so a test killed by a
// signal (a crash, the SIGTERM of --timeout) leaves none, and a crashing fault's failing
// tests cover nothing. libdlfl_crash_dump.so (lib/runtime/dlfl_crash_dump.c), preloaded
// into each test process, exits through the program's exit-time code on SIGSEGV, SIGBUS,
// SIGFPE, SIGILL, SIGABRT and SIGTERM and then re-raises the signal: the coverage is
// written and the outcome stays a crash.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace dlfl::collect {

struct CrashDumpPlan {
  bool active = false;
  std::vector<std::string> environment;  // "NAME=VALUE" for every test process when active
  std::string note;                      // one line for the user; empty when nothing to say
};

struct CrashDumpInputs {
  // The handler library; empty: not wanted (--crash-handler off) or not found.
  std::filesystem::path library;
  bool requested = true;  // false: the user turned it off
  // The backend keeps killed tests' coverage by itself (LLVM continuous mode): no handler.
  bool backend_keeps_killed_tests = false;
  // The test executables dlfl can see (gtest binary, CTest commands); empty for commands
  // run through a shell, which are assumed dynamic.
  std::vector<std::filesystem::path> executables;
  // The collector's own LD_PRELOAD and ASAN_OPTIONS, kept after ours (nullptr: unset).
  const char* ld_preload = nullptr;
  const char* asan_options = nullptr;
};

// Decides and builds the environment. The handler is active unless turned off, not found,
// not needed, or every visible executable is statically linked (LD_PRELOAD does not apply).
// ASan's check that its runtime comes first in the library list is turned off, since a
// gcc -fsanitize=address test would otherwise refuse to start. Throws dlfl::Error
// "PATH: ..." when an executable cannot be read.
CrashDumpPlan plan_crash_dump(const CrashDumpInputs& inputs);

}  // namespace dlfl::collect
