// What a shell command prints: tests that drive git, ldd, chromium or dlfl's scripts read
// their output through /bin/sh (popen).
#pragma once

#include <cstdio>
#include <string>

namespace dlfl::testing {

struct ShellRun {
  std::string out;  // the command's stdout (add 2>&1 to the command for its stderr too)
  int status = -1;  // as pclose returns it (a wait status); -1 when the shell did not start
};

inline ShellRun capture_shell(const std::string& command) {
  ShellRun r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  r.status = ::pclose(pipe);
  return r;
}

inline std::string shell_output(const std::string& command) { return capture_shell(command).out; }

}  // namespace dlfl::testing
