// Running a subject's configure and build commands (shell command lines with a time
// limit, cancellable, output kept for the report when they fail).
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace dlfl::bench {

struct CommandOutcome {
  bool ok = false;         // exited with status 0
  bool timed_out = false;  // killed after the time limit
  bool cancelled = false;  // killed because *cancel became true
  std::string how;         // "exit status 1", "timed out after 600 s", ...
  std::string output;      // the last 16 KiB of stdout + stderr
  double seconds = 0;
};

// Progress of a long step (a real project's build takes an hour): `say` gets "LABEL..."
// when it starts, "LABEL: running, elapsed N s" every `interval` while it runs (from
// another thread: `say` must be thread-safe) and "LABEL: done in N s" (or failed) at the
// end.
struct StepProgress {
  std::string label;  // "BUG: building the buggy version"
  std::function<void(const std::string&)> say;
  std::chrono::seconds interval{30};
};

// Runs `/bin/sh -c command` in `cwd` with `env` ("NAME=VALUE") added, in its own process
// group (a timeout kills the compiler processes too), saying its progress when given.
// A command ended by SIGINT/SIGTERM/SIGHUP (or a shell's 128+N for one) waits up to 3 s
// for *cancel: a signal to the whole group or job reaches the command before us, and the
// outcome is then `cancelled`, not a failure of the version.
// Throws dlfl::Error only when the shell cannot be started.
CommandOutcome run_command(const std::string& command, const std::filesystem::path& cwd,
                           const std::vector<std::string>& env, std::chrono::seconds timeout,
                           const std::atomic<bool>* cancel = nullptr, const StepProgress* progress = nullptr);

// How the command failed and the compiler's (or cmake's) last "error:" line (else the
// last line of its output), at most 300 characters: the whole log would drown the output.
std::string failure_summary(const CommandOutcome& outcome);

// Whether ccache is on PATH: the builds of every work tree then share compiled objects
// (with CCACHE_BASEDIR set to the work directory, their paths drop out of the hash).
bool ccache_on_path();

}  // namespace dlfl::bench
