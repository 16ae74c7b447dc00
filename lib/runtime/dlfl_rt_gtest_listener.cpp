// dlfl_rt_gtest_listener.cpp: brackets every GoogleTest test with dlfl_rt_begin_test/
// dlfl_rt_end_test, so a plain gtest binary yields per-test coverage in one run.
//
// Two ways to use it:
//  - Compiled in YOUR build, against the GoogleTest your project builds (a vendored one,
//    any version from 1.7 on): add the file `dlfl config --gtest-listener-source` prints
//    to your test executable's sources and link libdlfl_rt (`dlfl config --libs`). Nothing
//    else changes: a static initialiser registers the listener. Written in C++11 and
//    adapting to the GoogleTest API it sees (test_case_name/test_suite_name, Skipped).
//  - Prebuilt as libdlfl_rt_gtest.so (DLFL_RT_GTEST_PREBUILT) against the system's
//    GoogleTest: `dlfl config --libs --gtest`. Only right when the program links that same
//    GoogleTest: the listener's virtual functions must sit where the linked GoogleTest
//    calls them. A GoogleTest older than 1.10 (no TestResult::Skipped, e.g. a vendored
//    1.7) is detected and refused with one line instead of crashing at the first test end.
//
// Appending a listener before InitGoogleTest is allowed: UnitTest::GetInstance() is a
// function-local static.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_messages.h"

#ifdef DLFL_RT_GTEST_PREBUILT
// The flags usually go into CMAKE_EXE_LINKER_FLAGS, i.e. into every executable of a
// project, also those without GoogleTest (CMake's own compiler check). So the gtest
// functions used here are ELF weak references: without gtest they resolve to null and the
// listener stays out of the way; with gtest they bind as usual.
asm(".weak _ZN7testing8UnitTest11GetInstanceEv\n"
    ".weak _ZN7testing8UnitTest9listenersEv\n"
    ".weak _ZN7testing18TestEventListeners6AppendEPNS_17TestEventListenerE\n"
    ".weak _ZNK7testing10TestResult7SkippedEv\n"
    ".weak _ZNK7testing10TestResult6FailedEv\n"
    ".weak _ZNK7testing10TestResult16total_part_countEv\n"
    ".weak _ZNK7testing10TestResult17GetTestPartResultEi\n"
    ".weak _ZN7testing8UnitTest14AddEnvironmentEPNS_11EnvironmentE\n");
// TestResult::Skipped as a plain symbol, to ask whether the linked GoogleTest has it.
extern "C" void dlfl_rt_gtest_result_skipped() __asm__("_ZNK7testing10TestResult7SkippedEv");
// UnitTest::AddEnvironment (private: AddGlobalTestEnvironment calls it), the same way.
extern "C" void dlfl_rt_gtest_add_environment() __asm__("_ZN7testing8UnitTest14AddEnvironmentEPNS_11EnvironmentE");
#endif

namespace {

// A function's address as the linker resolved it; the compiler must not assume non-null.
template <typename F>
bool linked(F f) {
  asm volatile("" : "+r"(f));
  return f != nullptr;
}

// test_suite_name() from GoogleTest 1.10 on, test_case_name() before.
template <typename Info>
auto suite_name(const Info& info, int) -> decltype(info.test_suite_name()) {
  return info.test_suite_name();
}
template <typename Info>
const char* suite_name(const Info& info, long) {
  return info.test_case_name();
}

// TestResult::Skipped() from GoogleTest 1.10 on (GTEST_SKIP); before, nothing is skipped.
template <typename Result>
auto skipped(const Result& result, int) -> decltype(result.Skipped()) {
  return result.Skipped();
}
template <typename Result>
bool skipped(const Result&, long) {
  return false;
}

// The failure messages file (dlfl_rt_messages.h), -1 when not asked for or not writable.
int messages_fd = -1;

void open_messages() {
  const char* path = std::getenv(DLFL_RT_MESSAGES_ENV);
  if (!path || !*path) return;
  // The first process creates it with the header; a death test's child appends.
  messages_fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (messages_fd >= 0) {
    const std::string header = std::string(DLFL_RT_MESSAGES_MAGIC) + "\n";
    if (::write(messages_fd, header.data(), header.size()) != static_cast<ssize_t>(header.size())) {
      ::close(messages_fd);
      messages_fd = -1;
    }
  } else if (errno == EEXIST) {
    messages_fd = ::open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  }
}

// What GoogleTest's JSON report says of a failed test's parts (see dlfl_rt_messages.h).
std::string failure_message(const testing::TestResult& result) {
  std::string text;
  for (int i = 0; i < result.total_part_count(); ++i) {
    const testing::TestPartResult& part = result.GetTestPartResult(i);
    if (!part.failed()) continue;
    if (!text.empty()) text += "\n\n";
    text += part.file_name() ? part.file_name() : "unknown file";
    if (part.line_number() >= 0) text += ":" + std::to_string(part.line_number());
    text += "\n";
    text += part.message();
  }
  return text;
}

// One record in one write, so a death test's child appending cannot interleave with it.
void write_message(const std::string& test, const std::string& message) {
  const std::string record =
      "failure\t" + test + "\t" + std::to_string(message.size()) + "\n" + message + "\n";
  std::size_t done = 0;
  while (done < record.size()) {
    const ssize_t n = ::write(messages_fd, record.data() + done, record.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the collector then sees a cut record: no message, never a wrong one
    done += static_cast<std::size_t>(n);
  }
}

class CoverageListener : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo& info) override {
    // The name --gtest_filter matches, so the collector can restart on the remaining tests.
    const std::string name = std::string(suite_name(info, 0)) + "." + info.name();
    dlfl_rt_begin_test(name.c_str());
  }
  void OnTestEnd(const testing::TestInfo& info) override {
    const testing::TestResult* result = info.result();
    const int outcome = skipped(*result, 0) ? DLFL_RT_SKIPPED : result->Failed() ? DLFL_RT_FAILED : DLFL_RT_PASSED;
    // Before the end is recorded: a run the collector sees as failed has its message.
    if (outcome == DLFL_RT_FAILED && messages_fd >= 0)
      write_message(std::string(suite_name(info, 0)) + "." + info.name(), failure_message(*result));
    dlfl_rt_end_test(outcome);
  }
};

// Opens the death test child's test once RUN_ALL_TESTS sets up the environments: by then
// every static initialiser of the program has registered its probes. (Prebuilt, this
// library's initialiser runs before the program's; a test opened then would size the
// coverage file before the program's probes exist.)
class DeathTestChildBracket : public testing::Environment {
 public:
  explicit DeathTestChildBracket(std::string test) : test_(std::move(test)) {}
  void SetUp() override { dlfl_rt_begin_test(test_.c_str()); }

 private:
  std::string test_;
};

// A "threadsafe" death test re-executes the binary with --gtest_internal_run_death_test
// and --gtest_filter=TEST, and gtest forwards no events in that child. Its test is opened
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
  if (!child || test.empty()) return;
#ifdef DLFL_RT_GTEST_PREBUILT
  if (!linked(&dlfl_rt_gtest_add_environment)) {
    dlfl_rt_begin_test(test.c_str());  // no environments to wait for: open it now
    return;
  }
#endif
  testing::AddGlobalTestEnvironment(new DeathTestChildBracket(test));  // gtest owns it
}

bool register_listener() {
#ifdef DLFL_RT_GTEST_PREBUILT
  if (!linked(&testing::UnitTest::GetInstance)) return false;  // not a gtest program
  if (!linked(&dlfl_rt_gtest_result_skipped)) {
    // Its listener interface differs from the one this archive was compiled against.
    std::fputs("dlfl_rt: error: this program links a GoogleTest older than 1.10 (a vendored copy?), not the one "
               "libdlfl_rt_gtest was built for: compile the listener in your own build instead (add the file "
               "`dlfl config --gtest-listener-source` prints to the test's sources, link `dlfl config --libs`)\n",
               stderr);
    const char* file = std::getenv("DLFL_RT_FILE");
    if (file && *file) std::_Exit(2);  // collecting: stop before any test runs unbracketed
    return false;
  }
#endif
  // gtest owns listeners once appended.
  testing::UnitTest::GetInstance()->listeners().Append(new CoverageListener);
  open_messages();
  bracket_death_test_child();
  return true;
}

const bool registered = register_listener();

}  // namespace

// Referenced by nothing; lets `nm` and tests confirm the listener was linked in.
extern "C" int dlfl_rt_gtest_listener_linked() { return registered ? 1 : 0; }
