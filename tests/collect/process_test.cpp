// run_process: exit codes, signals, time limits with process-group kills, output
// capture limits, cancellation, and spawn errors.
#include "dlfl/collect/process.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

ProcessSpec shell(const std::string& script) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  return spec;
}

bool process_gone(pid_t pid) {
  // Reparented children are reaped by init shortly after they die.
  for (int i = 0; i < 100; ++i) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

TEST(Process, ExitCodeAndMergedOutput) {
  const auto r = run_process(shell("echo out; echo err >&2; exit 3"));
  EXPECT_EQ(r.end, ProcessEnd::exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.out, "out\nerr\n");
  EXPECT_EQ(describe_end(r, 0ms), "exit status 3");
}

// Reading output at most once per interval loses nothing: lines, output far beyond a pipe's
// capacity (the child blocks until the next read, never forever), both streams; the end
// and a time limit still stop the wait at once.
TEST(Process, OutputIntervalLosesNoOutputAndKeepsTheLimits) {
  auto spec = shell("i=0; while [ $i -lt 3000 ]; do echo line $i; i=$((i+1)); done; echo err >&2; "
                    "head -c 3000000 /dev/zero | tr '\\0' x; echo; echo last");
  spec.output_interval = 20ms;
  spec.merge_stderr = false;
  spec.stdout_limit = SIZE_MAX;
  auto r = run_process(spec);
  EXPECT_TRUE(r.ok());
  const std::size_t lines = 10u * 7 + 90u * 8 + 900u * 9 + 2000u * 10;  // "line N\n"
  EXPECT_EQ(r.out.size(), lines + 3000000u + std::string("\nlast\n").size());
  EXPECT_EQ(r.out.rfind("line 0\nline 1\n", 0), 0u);
  EXPECT_THAT(r.out, HasSubstr("line 2999\nxxx"));
  EXPECT_EQ(r.out.substr(r.out.size() - 6), "\nlast\n");
  EXPECT_EQ(r.err, "err\n");

  auto hang = shell("echo started; exec sleep 30");
  hang.output_interval = 1000ms;
  hang.timeout = 300ms;
  hang.kill_grace = 100ms;
  r = run_process(hang);
  EXPECT_EQ(r.end, ProcessEnd::timed_out);
  EXPECT_EQ(r.out, "started\n");
  EXPECT_LT(r.wall, 10s);
}

TEST(Process, SeparateStderr) {
  auto spec = shell("echo out; echo err >&2");
  spec.merge_stderr = false;
  const auto r = run_process(spec);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(Process, CrashIsASignal) {
  const auto r = run_process(shell("echo before; kill -SEGV $$"));
  EXPECT_EQ(r.end, ProcessEnd::signaled);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.out, "before\n");
  EXPECT_EQ(describe_end(r, 0ms), "killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(run_process(shell("kill -ABRT $$")).signal, SIGABRT);
}

TEST(Process, TimeoutKillsTheWholeGroup) {
  testing::TempDir dir;
  // A grandchild in the background: the time limit must take it down too.
  auto spec = shell("sleep 30 & echo $! > " + (dir / "pid").string() + "; sleep 30");
  spec.timeout = 300ms;
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_process(spec);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_EQ(r.end, ProcessEnd::timed_out);
  EXPECT_EQ(describe_end(r, spec.timeout), "timed out after 0.3 s");
  const pid_t grandchild = std::stoi(testing::slurp(dir / "pid"));
  EXPECT_TRUE(process_gone(grandchild));
}

TEST(Process, SigtermIgnoredMeansSigkillAfterTheGrace) {
  auto spec = shell("trap '' TERM; sleep 30");
  spec.timeout = 200ms;
  spec.kill_grace = 300ms;
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_process(spec);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_EQ(r.end, ProcessEnd::timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
}

TEST(Process, LeaderExitDoesNotWaitForAPipeHolder) {
  testing::TempDir dir;
  // The background sleep keeps the output pipe open; the leader's exit ends the run
  // anyway, and the leftover is killed.
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_process(shell("sleep 30 & echo $! > " + (dir / "pid").string() + "; echo done"));
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out, "done\n");
  EXPECT_TRUE(process_gone(std::stoi(testing::slurp(dir / "pid"))));
}

TEST(Process, OutputLimitKeepsTheTail) {
  auto spec = shell("i=0; while [ $i -lt 20000 ]; do echo line$i; i=$((i+1)); done");
  spec.stdout_limit = 100;
  const auto r = run_process(spec);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.out.size(), 100u);
  EXPECT_THAT(r.out, ::testing::EndsWith("line19999\n"));
  spec.stdout_limit = SIZE_MAX;
  EXPECT_GT(run_process(spec).out.size(), 150000u);
}

TEST(Process, WorkingDirectoryAndEnvironment) {
  testing::TempDir dir;
  auto spec = shell("pwd; echo \"[$DLFL_TEST_VAR][${HOME-unset}]\"");
  spec.cwd = dir.path();
  spec.env_set = {"DLFL_TEST_VAR=a b"};
  spec.env_unset = {"HOME"};
  const auto r = run_process(spec);
  EXPECT_EQ(r.out, std::filesystem::canonical(dir.path()).string() + "\n[a b][unset]\n");
}

TEST(Process, StdinIsEmpty) {
  const auto r = run_process(shell("cat; echo end"));
  EXPECT_EQ(r.out, "end\n");
}

TEST(Process, CancellationKillsPromptly) {
  std::atomic<bool> cancel{false};
  std::thread trigger([&] {
    std::this_thread::sleep_for(200ms);
    cancel = true;
  });
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_process(shell("sleep 30"), &cancel);
  trigger.join();
  EXPECT_EQ(r.end, ProcessEnd::cancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

TEST(Process, CancellationLetsTheChildStopJobsInGroupsOfTheirOwn) {
  // As ninja does: each job in a session (so a process group) of its own, stopped by the
  // parent on SIGTERM. A SIGKILL to the parent's group would leave the job running.
  testing::TempDir dir;
  const auto pid_file = dir / "job";
  const auto script = "setsid sleep 30 & job=$!; trap 'kill $job; exit 143' TERM; echo $job > " +
                      pid_file.string() + ".tmp; mv " + pid_file.string() + ".tmp " + pid_file.string() + "; wait";
  std::atomic<bool> cancel{false};
  pid_t job = 0;
  bool job_ran_apart = false;
  std::thread trigger([&] {
    for (int i = 0; i < 500 && !std::filesystem::exists(pid_file); ++i) std::this_thread::sleep_for(10ms);
    if (std::filesystem::exists(pid_file)) {
      job = std::stoi(testing::slurp(pid_file));
      // The job must really be apart (setsid did not fork), else this proves nothing.
      job_ran_apart = ::kill(job, 0) == 0 && ::getpgid(job) == job;
    }
    cancel = true;
  });
  const auto r = run_process(shell(script), &cancel);
  trigger.join();
  EXPECT_EQ(r.end, ProcessEnd::cancelled);
  ASSERT_TRUE(job_ran_apart);
  const bool gone = process_gone(job);
  EXPECT_TRUE(gone);
  if (!gone) ::kill(job, SIGKILL);
}

TEST(Process, MissingProgramOrDirectoryIsAnError) {
  ProcessSpec spec;
  spec.argv = {"dlfl-no-such-program-xyz"};
  try {
    run_process(spec);
    FAIL();
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot run 'dlfl-no-such-program-xyz': No such file or directory"));
  }
  auto in_missing_dir = shell("true");
  in_missing_dir.cwd = "/nonexistent/dlfl";
  EXPECT_THROW(run_process(in_missing_dir), Error);
  EXPECT_THROW(run_process(ProcessSpec{}), Error);
}

TEST(Process, ParallelRunsDoNotLeakPipes) {
  // Pipes are close-on-exec: a long child started by one thread must not hold the
  // output pipe of short children started by another.
  std::thread slow([] { run_process(shell("sleep 2")); });
  const auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i) EXPECT_EQ(run_process(shell("echo x")).out, "x\n");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1900ms);
  slow.join();
}

TEST(Process, SignalNames) {
  EXPECT_EQ(signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(signal_name(SIGABRT), "SIGABRT");
  EXPECT_EQ(signal_name(64), "signal 64");
}

}  // namespace
}  // namespace dlfl::collect
