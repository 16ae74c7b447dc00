// Running one child process: own process group, output captured, time limit, cancellation.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace dlfl::collect {

struct ProcessSpec {
  // argv[0] without a '/' is looked up on PATH (posix_spawnp). Must not be empty.
  std::vector<std::string> argv;
  std::filesystem::path cwd;             // empty: the caller's working directory
  std::vector<std::string> env_set;      // "NAME=VALUE", added or replacing the caller's
  std::vector<std::string> env_unset;    // names removed from the caller's environment
  std::chrono::milliseconds timeout{0};  // 0: no limit
  // After the limit, or on cancellation, the whole process group gets SIGTERM, then
  // SIGKILL after this grace.
  std::chrono::milliseconds kill_grace{2000};
  // stderr goes into the stdout capture (test output) or is captured on its own (tools).
  bool merge_stderr = true;
  // Bytes kept of each stream; beyond it the *last* bytes are kept (where a test's failure
  // message is). SIZE_MAX keeps everything (a tool's JSON output).
  std::size_t stdout_limit = 64 * 1024;
  std::size_t stderr_limit = 64 * 1024;
  // 0: output is read as it comes. > 0: after reading output, the next read waits this
  // long (the process's end still wakes us at once), so a child that prints a line per
  // test (GoogleTest flushes each) costs one wake-up per interval, not two context
  // switches per line; its pipes are enlarged to 1 MiB where allowed. For one long run
  // of many tests; needs pidfd_open (Linux 5.3), else ignored.
  std::chrono::milliseconds output_interval{0};
};

enum class ProcessEnd : unsigned char {
  exited,     // exit_code is valid
  signaled,   // killed by `signal`, not by us (a crash: SIGSEGV, SIGABRT, ...)
  timed_out,  // exceeded ProcessSpec::timeout; we killed its group
  cancelled,  // *cancel became true; we killed its group
};

struct ProcessResult {
  ProcessEnd end = ProcessEnd::exited;
  int exit_code = 0;  // when exited
  int signal = 0;     // the signal that ended it, when signaled (or killed by us)
  std::string out;    // stdout (and stderr when merged), possibly only its tail
  std::string err;    // stderr when not merged
  bool truncated = false;  // some output was dropped (limits)
  std::chrono::nanoseconds wall{0};

  bool ok() const noexcept { return end == ProcessEnd::exited && exit_code == 0; }
};

// Starts the process in a new process group (so a timeout or cancellation kills its
// children too) with stdin from /dev/null and no inherited descriptors other than 0-2
// (ours are all close-on-exec), and waits for it while draining its output. When the
// group leader ends, any member of its group still running is killed (SIGKILL): a test
// must not outlive its run. Returns without waiting for stray holders of the output pipe.
// Polls `cancel` (when given) at least every 100 ms.
// Throws dlfl::Error("cannot run 'PROGRAM': REASON") when the program cannot be started
// (not found, not executable, bad working directory).
ProcessResult run_process(const ProcessSpec& spec, const std::atomic<bool>* cancel = nullptr);

// "SIGSEGV", "SIGABRT", ... or "signal N".
std::string signal_name(int signal);

// One line describing how the process ended: "exit status 1", "killed by signal 11
// (SIGSEGV)", "timed out after 2.5 s", "cancelled".
std::string describe_end(const ProcessResult& result, std::chrono::milliseconds timeout);

}  // namespace dlfl::collect
