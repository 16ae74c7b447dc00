// Runs the dlfl binary and measures the child's peak resident memory (wait4's ru_maxrss):
// how the CLI tests show a reader refusing a huge input without loading it.
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../support/test_files.h"

namespace dlfl::testing {

struct Measured {
  int exit_code = -1;
  std::string err;
  long max_rss_kib = 0;
};

// dlfl with `args` (no shell), stderr into `err_file`, its peak RSS from wait4(). A hang
// ends as SIGALRM after 60 s; `address_space_bytes` (RLIMIT_AS, 0: none) keeps a reader
// that does load a huge file from taking the shared machine's memory: it fails instead.
inline Measured run_measured(const std::vector<std::string>& args, const std::filesystem::path& err_file,
                             std::size_t address_space_bytes = 0) {
  std::vector<std::string> words = {DLFL_BINARY};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(err, 2);
    ::dup2(null, 1);
    if (address_space_bytes > 0) {
      const struct rlimit limit {address_space_bytes, address_space_bytes};
      ::setrlimit(RLIMIT_AS, &limit);
    }
    ::alarm(60);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  Measured m;
  int status = 0;
  struct rusage usage {};
  if (pid > 0 && ::wait4(pid, &status, 0, &usage) == pid) {
    m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    m.max_rss_kib = usage.ru_maxrss;
  }
  m.err = slurp(err_file);
  return m;
}

}  // namespace dlfl::testing
