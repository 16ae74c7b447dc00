// Shell commands of a subject (include/dlfl/lab/bench/build_runner.h), on top of the
// collector's process runner.
#include "dlfl/lab/bench/build_runner.h"

#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>

#include "dlfl/collect/process.h"

namespace dlfl::bench {

namespace {

// Whether the command ended as a termination signal ends it: killed by SIGINT, SIGTERM or
// SIGHUP, or a shell's 128+N for one of them.
bool ended_by_termination(const collect::ProcessResult& r) {
  const auto termination = [](int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; };
  if (r.end == collect::ProcessEnd::signaled) return termination(r.signal);
  return r.end == collect::ProcessEnd::exited && r.exit_code > 128 && termination(r.exit_code - 128);
}

}  // namespace

CommandOutcome run_command(const std::string& command, const std::filesystem::path& cwd,
                           const std::vector<std::string>& env, std::chrono::seconds timeout,
                           const std::atomic<bool>* cancel, const StepProgress* progress) {
  collect::ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.cwd = cwd;
  spec.env_set = env;
  spec.timeout = timeout;
  spec.merge_stderr = true;
  spec.stdout_limit = 16 * 1024;
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  const auto elapsed = [started] {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started).count()) + " s";
  };
  const bool saying = progress && progress->say;
  // A line every interval while it runs, so a long build shows it is alive.
  std::mutex mutex;
  std::condition_variable wake;
  bool finished = false;
  std::thread heartbeat;
  if (saying) {
    progress->say(progress->label + "...");
    heartbeat = std::thread([&] {
      std::unique_lock lock(mutex);
      while (!wake.wait_for(lock, progress->interval, [&] { return finished; }))
        progress->say(progress->label + ": running, elapsed " + elapsed());
    });
  }
  const collect::ProcessResult r = collect::run_process(spec, cancel);
  // Ctrl-C, scancel and a Slurm requeue signal every process of the group or job: the
  // command may die of it before our own handler has set *cancel. Its end says nothing of
  // the version it built, so wait a moment for the signal that stops this run.
  bool cancelled = r.end == collect::ProcessEnd::cancelled;
  if (cancel && !cancelled && ended_by_termination(r))
    for (int i = 0; i < 30 && !(cancelled = cancel->load()); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (saying) {
    {
      std::lock_guard lock(mutex);
      finished = true;
    }
    wake.notify_all();
    heartbeat.join();
    progress->say(progress->label + (r.ok() ? ": done" : cancelled ? ": interrupted" : ": failed") + " in " + elapsed());
  }
  CommandOutcome out;
  out.ok = r.ok();
  out.timed_out = r.end == collect::ProcessEnd::timed_out;
  out.cancelled = cancelled;
  out.how = collect::describe_end(r, timeout);
  out.output = r.out;
  out.seconds = std::chrono::duration<double>(r.wall).count();
  return out;
}

std::string failure_summary(const CommandOutcome& outcome) {
  const std::string& out = outcome.output;
  std::size_t at = out.rfind("error:");
  std::string line;
  if (at == std::string::npos) {
    at = out.find_last_not_of("\r\n");
    if (at == std::string::npos) return outcome.how;
  }
  const std::size_t begin = out.rfind('\n', at);
  const std::size_t end = out.find_first_of("\r\n", at);
  line = out.substr(begin == std::string::npos ? 0 : begin + 1,
                    end == std::string::npos ? std::string::npos : end - (begin == std::string::npos ? 0 : begin + 1));
  if (line.size() > 300) line.resize(300);
  return outcome.how + (line.empty() ? "" : "; " + line);
}

bool ccache_on_path() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((std::filesystem::path(dir) / "ccache").c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace dlfl::bench
