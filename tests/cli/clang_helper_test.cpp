// dlfl runs its Clang-based commands (instrument, callgraph, mutate, bench) in dlfl-clang
// beside it (tools/dlfl/clang_helper.h): dlfl itself loads no LLVM/Clang, and through it
// those commands behave as if dlfl ran them (arguments, output, exit status, signals).
#include <gtest/gtest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "../support/shell_output.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using dlfl::testing::run_command;
using dlfl::testing::run_dlfl;
using dlfl::testing::slurp;
using dlfl::testing::TempDir;
using dlfl::testing::write_text;

// What `ldd BINARY` prints: every shared library the binary loads, its own and theirs.
[[maybe_unused]] std::string loaded_libraries(const std::string& binary) {
  std::string out = dlfl::testing::shell_output("ldd '" + binary + "' 2>&1");
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

[[maybe_unused]] bool loads_llvm_or_clang(const std::string& ldd) {
  return ldd.find("llvm") != std::string::npos || ldd.find("clang") != std::string::npos;
}

// A copy of dlfl alone in a directory, with `helper` (a shell script, if not empty) as
// its dlfl-clang.
struct LoneDlfl {
  TempDir dir{"clang-helper"};
  fs::path dlfl = dir / "dlfl";
  explicit LoneDlfl(const std::string& helper = "") {
    fs::copy_file(DLFL_BINARY, dlfl);
    if (helper.empty()) return;
    write_text(dir / "dlfl-clang", helper);
    fs::permissions(dir / "dlfl-clang", fs::perms::owner_all);
  }
};

struct Spawned {
  pid_t pid = -1;
  int status = 0;
};

// Runs `argv` (argv[0] the program) with stdout and stderr to /dev/null; waits for it.
[[maybe_unused]] Spawned spawn_and_wait(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  Spawned s;
  const int error = posix_spawn(&s.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return {};
  ::waitpid(s.pid, &s.status, 0);
  return s;
}

TEST(ClangHelper, DlflLoadsNoLlvmOrClang) {
#ifndef DLFL_CLANG_HELPER_BINARY
  GTEST_SKIP() << "dlfl was built without the Clang 14 development packages: there is no dlfl-clang";
#else
  // The check sees LLVM where it is: in the helper.
  const std::string helper = loaded_libraries(DLFL_CLANG_HELPER_BINARY);
  ASSERT_NE(helper.find("libllvm"), std::string::npos) << helper;
  ASSERT_NE(helper.find("libclang-cpp"), std::string::npos) << helper;
  const std::string dlfl = loaded_libraries(DLFL_BINARY);
  ASSERT_NE(dlfl.find("libc.so"), std::string::npos) << dlfl;
  EXPECT_FALSE(loads_llvm_or_clang(dlfl)) << "dlfl loads LLVM or Clang:\n" << dlfl;
#endif
}

TEST(ClangHelper, ClangCommandsRunThroughDlfl) {
  // Help and the command list come from the same definitions in both executables.
  const auto overview = run_dlfl("--help");
  ASSERT_EQ(overview.exit_code, 0) << overview.err;
  for (const char* command : {"instrument", "callgraph", "mutate", "bench", "collect", "rank"})
    EXPECT_NE(overview.out.find(std::string("\n  ") + command), std::string::npos) << command << "\n" << overview.out;
  const auto help = run_dlfl("instrument --help");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("--granularity"), std::string::npos) << help.out;
  const auto operators = run_dlfl("mutate --list-operators");
  ASSERT_EQ(operators.exit_code, 0) << operators.err;
  EXPECT_NE(operators.out.find("swap_dims"), std::string::npos) << operators.out;
#ifdef DLFL_CLANG_HELPER_BINARY
  // Clang's own errors come back through dlfl as one line with exit 2.
  TempDir empty("clang-helper-db");
  const auto r = run_dlfl("instrument -q -p " + empty.path().string() + " -o " + (empty / "out").string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("dlfl: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
#endif
}

TEST(ClangHelper, MissingHelperIsOneLineErrorNamingIt) {
  LoneDlfl lone;
  // What needs no Clang runs without it.
  const auto formulas = run_command(lone.dlfl.string() + " formulas");
  EXPECT_EQ(formulas.exit_code, 0) << formulas.err;
  EXPECT_NE(formulas.out.find("ochiai"), std::string::npos) << formulas.out;
  for (const std::string command :
       {"instrument -p build -o out", "callgraph -p build -o g.tsv", "mutate -p build", "bench b.json"}) {
    const auto r = run_command(lone.dlfl.string() + " " + command);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_EQ(r.err.rfind("dlfl: error: ", 0), 0u) << command << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << command << ": " << r.err;
#ifdef DLFL_CLANG_HELPER_BINARY
    EXPECT_NE(r.err.find((lone.dir / "dlfl-clang").string() + ": "), std::string::npos) << command << ": " << r.err;
#else
    if (command.rfind("bench", 0) != 0) {  // a bench without Clang runs what it can
      EXPECT_NE(r.err.find("without the Clang 14 development packages"), std::string::npos) << command << ": " << r.err;
    }
#endif
  }
}

TEST(ClangHelper, DlflBecomesTheHelperWithItsArguments) {
#ifndef DLFL_CLANG_HELPER_BINARY
  GTEST_SKIP() << "dlfl was built without the Clang 14 development packages: there is no dlfl-clang";
#else
  // A stand-in helper that writes its process id and arguments, then exits 7 or is killed.
  LoneDlfl lone(
      "#!/bin/sh\n"
      "printf '%s\\n' \"$$\" \"$@\" > \"$(dirname \"$0\")/seen\"\n"
      "[ \"$1\" = callgraph ] && kill -TERM $$\n"
      "exit 7\n");
  const Spawned r = spawn_and_wait({lone.dlfl.string(), "instrument", "-p", "a b", "-o", "out", "x.cpp"});
  ASSERT_GT(r.pid, 0);
  ASSERT_TRUE(WIFEXITED(r.status)) << r.status;
  EXPECT_EQ(WEXITSTATUS(r.status), 7);
  // The same process (execv, not a child), given the arguments as they were.
  EXPECT_EQ(slurp(lone.dir / "seen"), std::to_string(r.pid) + "\ninstrument\n-p\na b\n-o\nout\nx.cpp\n");
  const Spawned killed = spawn_and_wait({lone.dlfl.string(), "callgraph", "-p", "b", "-o", "g.tsv"});
  ASSERT_TRUE(WIFSIGNALED(killed.status)) << killed.status;
  EXPECT_EQ(WTERMSIG(killed.status), SIGTERM);
  // Usage errors are found before: dlfl parses with the same definitions.
  const auto usage = run_command(lone.dlfl.string() + " instrument --bogus");
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_EQ(usage.err.rfind("dlfl: error: ", 0), 0u) << usage.err;
  EXPECT_FALSE(fs::exists(lone.dir / "seen") && slurp(lone.dir / "seen").find("--bogus") != std::string::npos);
#endif
}

}  // namespace
