// gtest_listener.cpp: brackets every GoogleTest test with dlfl_rt_begin_test/end_test, so a
// plain gtest binary yields per-test coverage in one run.
//
// Registers itself from a static initialiser: link libdlfl_rt_gtest.a with --whole-archive
// (`dlfl config --libs --gtest` does) and no source change is needed. Appending a listener
// before InitGoogleTest is allowed: UnitTest::GetInstance() is a function-local static.
//
// The flags usually go into CMAKE_EXE_LINKER_FLAGS, i.e. into every executable of a
// project, also those without GoogleTest (CMake's own compiler check). So the few gtest
// functions used here are weak references: without gtest they resolve to null and the
// listener stays out of the way; with gtest they bind as usual.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "dlfl_rt/dlfl_rt.h"

// ELF weak undefined symbols (GNU as / clang's integrated assembler).
asm(".weak _ZN7testing8UnitTest11GetInstanceEv\n"
    ".weak _ZN7testing8UnitTest9listenersEv\n"
    ".weak _ZN7testing18TestEventListeners6AppendEPNS_17TestEventListenerE\n"
    ".weak _ZNK7testing10TestResult7SkippedEv\n"
    ".weak _ZNK7testing10TestResult6FailedEv\n");

namespace {

bool gtest_linked() {
  testing::UnitTest* (*get_instance)() = &testing::UnitTest::GetInstance;
  asm volatile("" : "+r"(get_instance));  // the compiler must not assume a function address is non-null
  return get_instance != nullptr;
}

class CoverageListener : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo& info) override {
    // The name --gtest_filter matches, so the collector can restart on the remaining tests.
    const std::string name = std::string(info.test_suite_name()) + "." + info.name();
    dlfl_rt_begin_test(name.c_str());
  }
  void OnTestEnd(const testing::TestInfo& info) override {
    const testing::TestResult* result = info.result();
    const int outcome = result->Skipped() ? DLFL_RT_SKIPPED
                        : result->Failed() ? DLFL_RT_FAILED
                                           : DLFL_RT_PASSED;
    dlfl_rt_end_test(outcome);
  }
};

// A "threadsafe" death test re-executes the binary with --gtest_internal_run_death_test
// and --gtest_filter=TEST, and gtest forwards no events in that child. Its slot is opened
// from the command line instead; the runtime gives the child a file of its own
// (DLFL_RT_FILE.PID) and the collector adds it to the test of the same name.
void bracket_death_test_child() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bool child = false;
  std::string test;
  for (std::size_t start = 0; start < cmdline.size();) {
    std::size_t end = cmdline.find('\0', start);
    if (end == std::string::npos) end = cmdline.size();
    const std::string arg = cmdline.substr(start, end - start);
    if (arg.rfind("--gtest_internal_run_death_test", 0) == 0) child = true;
    if (arg.rfind("--gtest_filter=", 0) == 0) test = arg.substr(15);
    start = end + 1;
  }
  if (child && !test.empty()) dlfl_rt_begin_test(test.c_str());
}

// gtest owns listeners once appended.
const bool registered = [] {
  if (!gtest_linked()) return false;
  testing::UnitTest::GetInstance()->listeners().Append(new CoverageListener);
  bracket_death_test_child();
  return true;
}();

}  // namespace

// Referenced by nothing; lets `nm` and tests confirm the listener was linked in.
extern "C" int dlfl_rt_gtest_listener_linked() { return registered ? 1 : 0; }
