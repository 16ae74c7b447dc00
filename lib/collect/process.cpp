// Running one child process: posix_spawn into its own process group, a poll loop over
// its output pipes and a pidfd, time limit and cancellation by killing the whole group.
#include "dlfl/collect/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <string_view>
#include <utility>

#include "dlfl/error.h"

extern char** environ;  // NOLINT: POSIX declares it nowhere

namespace dlfl::collect {
namespace {

using Clock = std::chrono::steady_clock;

// A file descriptor closed on scope exit.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) reset(std::exchange(other.fd_, -1));
    return *this;
  }
  ~Fd() { reset(); }
  int get() const noexcept { return fd_; }
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read, write;
};

Pipe make_pipe() {
  int fds[2];
  // Close-on-exec so that a child spawned by another thread never inherits our end:
  // an inherited write end would keep a pipe open and hide EOF.
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  Pipe p;
  p.read.reset(fds[0]);
  p.write.reset(fds[1]);
  ::fcntl(p.read.get(), F_SETFL, ::fcntl(p.read.get(), F_GETFL) | O_NONBLOCK);
  return p;
}

std::vector<std::string> build_environment(const ProcessSpec& spec) {
  auto name_of = [](std::string_view entry) { return entry.substr(0, entry.find('=')); };
  auto overridden = [&](std::string_view name) {
    for (const auto& u : spec.env_unset)
      if (u == name) return true;
    for (const auto& s : spec.env_set)
      if (name_of(s) == name) return true;
    return false;
  };
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e)
    if (!overridden(name_of(*e))) env.emplace_back(*e);
  env.insert(env.end(), spec.env_set.begin(), spec.env_set.end());
  return env;
}

// Output kept under a byte limit: the tail survives.
struct Capture {
  std::string* text;
  std::size_t limit;
  bool* truncated;
  void append(const char* data, std::size_t n) {
    text->append(data, n);
    // Trim in big steps so a chatty child costs amortized O(1) per byte.
    if (limit != SIZE_MAX && text->size() > 2 * limit + 4096) trim();
  }
  void trim() {
    if (limit == SIZE_MAX || text->size() <= limit) return;
    text->erase(0, text->size() - limit);
    *truncated = true;
  }
};

// Reads what is available now; returns false at EOF or on error (the fd is then done).
// Sets `got` when it read anything.
bool drain(int fd, Capture& capture, bool& got) {
  std::array<char, 65536> buffer;
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n > 0) {
      capture.append(buffer.data(), static_cast<std::size_t>(n));
      got = true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    return false;
  }
}

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  const long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) {
    ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
    return static_cast<int>(fd);
  }
#else
  (void)pid;
#endif
  return -1;  // old kernel: fall back to polling waitid every few milliseconds
}

// True when the child has ended; it stays a zombie (WNOWAIT) so its pid, which is also
// its process group id, cannot be reused before we kill the group and reap it.
bool has_ended(pid_t pid) {
  siginfo_t info{};
  info.si_pid = 0;
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    if (errno != EINTR) return true;  // ECHILD: nothing left to wait for
  return info.si_pid == pid;
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec, const std::atomic<bool>* cancel) {
  if (spec.argv.empty()) throw Error("run_process: empty command");
  Pipe out = make_pipe();
  Pipe err;
  if (!spec.merge_stderr) err = make_pipe();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, spec.merge_stderr ? out.write.get() : err.write.get(), 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Own process group: a timeout kills the test and everything it started. Default
  // dispositions and an empty mask: we may ignore SIGPIPE, the test must not inherit that.
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);

  std::vector<std::string> env = build_environment(spec);
  std::vector<char*> envp, argv;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = spec.argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = -1;
  const auto started = Clock::now();
  const int rc = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    std::string where = spec.cwd.empty() ? "" : " in " + spec.cwd.string();
    throw Error(fmt::format("cannot run '{}'{}: {}", spec.argv[0], where, std::strerror(rc)));
  }
  out.write.reset();
  err.write.reset();
  Fd pidfd(open_pidfd(pid));

  ProcessResult result;
  Capture out_capture{&result.out, spec.stdout_limit, &result.truncated};
  Capture err_capture{&result.err, spec.stderr_limit, &result.truncated};
  bool out_open = true, err_open = !spec.merge_stderr;
  bool ended = false, timed_out = false, cancelled = false;
  // Output was read on the last wake-up: with an output_interval, the next wait is for the
  // end only, so a chatty child wakes us once per interval, not once per line.
  bool got_output = false;
  const bool batching = spec.output_interval.count() > 0 && pidfd.get() >= 0;
  if (batching)  // room for an interval of output, so the child rarely blocks; best effort
    for (const int fd : {out.read.get(), err.read.get()})
      if (fd >= 0) ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  const bool limited = spec.timeout.count() > 0;
  auto deadline = started + spec.timeout;
  Clock::time_point kill_at{};  // when SIGTERM was not enough

  while (!ended) {
    // Wake at the next deadline, at least every 100 ms for cancellation, and every 5 ms
    // without a pidfd (old kernels) to notice the exit.
    auto wait = std::chrono::milliseconds(cancel ? 100 : -1);
    if (pidfd.get() < 0) wait = std::chrono::milliseconds(5);
    const auto now = Clock::now();
    auto until = [&](Clock::time_point t) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(t - now);
      const auto ms = std::max(left, std::chrono::milliseconds(0));
      wait = wait.count() < 0 ? ms : std::min(wait, ms);
    };
    if (limited && !timed_out) until(deadline);
    if (kill_at != Clock::time_point{}) until(kill_at);
    const bool pause_output = batching && got_output;
    if (pause_output) wait = wait.count() < 0 ? spec.output_interval : std::min(wait, spec.output_interval);

    std::array<pollfd, 3> fds{};
    nfds_t n = 0;
    if (out_open && !pause_output) fds[n++] = {out.read.get(), POLLIN, 0};
    if (err_open && !pause_output) fds[n++] = {err.read.get(), POLLIN, 0};
    if (pidfd.get() >= 0) fds[n++] = {pidfd.get(), POLLIN, 0};
    const int ready = ::poll(fds.data(), n, static_cast<int>(wait.count()));
    if (ready < 0 && errno != EINTR) throw Error(std::string("poll: ") + std::strerror(errno));

    got_output = false;
    if (out_open) out_open = drain(out.read.get(), out_capture, got_output);
    if (err_open) err_open = drain(err.read.get(), err_capture, got_output);
    ended = has_ended(pid);
    if (ended) break;

    // SIGTERM first, for a cancellation as for a time limit: a build tool (ninja, make)
    // runs each job in a process group of its own, which only it can stop, and does on
    // SIGTERM; SIGKILL would leave those jobs running, orphaned.
    const auto t = Clock::now();
    if (cancel && !cancelled && !timed_out && cancel->load(std::memory_order_relaxed)) {
      cancelled = true;
      ::kill(-pid, SIGTERM);
      kill_at = t + spec.kill_grace;
    } else if (limited && !timed_out && !cancelled && t >= deadline) {
      timed_out = true;
      ::kill(-pid, SIGTERM);
      kill_at = t + spec.kill_grace;
    } else if (kill_at != Clock::time_point{} && t >= kill_at) {
      ::kill(-pid, SIGKILL);
      kill_at = {};
    }
  }
  // The leader is a zombie until reaped, so -pid still names only its group: kill the
  // rest of the group (a daemon the test left behind), then collect what is in the pipes.
  ::kill(-pid, SIGKILL);
  if (out_open) drain(out.read.get(), out_capture, got_output);
  if (err_open) drain(err.read.get(), err_capture, got_output);
  out_capture.trim();
  err_capture.trim();

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.wall = Clock::now() - started;
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (cancelled)
    result.end = ProcessEnd::cancelled;
  else if (timed_out)
    result.end = ProcessEnd::timed_out;
  else if (WIFSIGNALED(status))
    result.end = ProcessEnd::signaled;
  else
    result.end = ProcessEnd::exited;
  return result;
}

std::string signal_name(int signal) {
  // sigabbrev_np is glibc ≥ 2.32; keep the common ones here so any libc works.
  static constexpr std::pair<int, const char*> names[] = {
      {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
      {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
      {SIGPIPE, "SIGPIPE"}, {SIGTRAP, "SIGTRAP"}, {SIGQUIT, "SIGQUIT"}, {SIGHUP, "SIGHUP"},
      {SIGALRM, "SIGALRM"}, {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"}, {SIGUSR1, "SIGUSR1"},
      {SIGUSR2, "SIGUSR2"}};
  for (const auto& [number, name] : names)
    if (number == signal) return name;
  return "signal " + std::to_string(signal);
}

std::string describe_end(const ProcessResult& result, std::chrono::milliseconds timeout) {
  switch (result.end) {
    case ProcessEnd::exited:
      return "exit status " + std::to_string(result.exit_code);
    case ProcessEnd::signaled:
      return fmt::format("killed by signal {} ({})", result.signal, signal_name(result.signal));
    case ProcessEnd::timed_out:
      return fmt::format("timed out after {:g} s", std::chrono::duration<double>(timeout).count());
    case ProcessEnd::cancelled:
      return "cancelled";
  }
  return {};
}

}  // namespace dlfl::collect
