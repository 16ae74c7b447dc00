// Runs the dlfl binary and captures its exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "../support/test_files.h"

namespace dlfl::testing {

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

// `command` run by the shell (a program and its arguments, quote yourself).
inline RunResult run_command(const std::string& command) {
  static TempDir scratch;
  const auto out = scratch / "stdout", err = scratch / "stderr";
  const std::string cmd = command + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// `args` is appended to the binary path as is (shell words, quote yourself).
inline RunResult run_dlfl(const std::string& args) { return run_command(std::string(DLFL_BINARY) + " " + args); }

inline std::string source_path(const std::string& relative) { return std::string(DLFL_SOURCE_DIR) + "/" + relative; }

}  // namespace dlfl::testing
