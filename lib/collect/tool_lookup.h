// Finding the coverage tools on PATH and asking them their version.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dlfl::collect {

// The program's path when `name` (a bare name looked up on PATH, or a path) names an
// executable file; empty otherwise.
std::string find_program(std::string_view name);

struct ToolVersion {
  std::string line;  // the first line of `PROGRAM --version`
  int major = 0;     // 0 when not recognized
};

// Runs `program ARGS` (default `--version`; llvm-profdata 14 wants `merge --version`). The major version is the number after "version " (LLVM:
// "Debian LLVM version 14.0.6"), else the last word (gcov: "gcov (Debian 12.2.0-14) 12.2.0").
// Throws dlfl::Error "cannot run 'PROGRAM': ..." when it cannot be started.
ToolVersion query_version(const std::string& program, const std::vector<std::string>& args = {"--version"});

// `base-MAJOR` when that is on PATH (Debian installs gcov-12, llvm-cov-14, ...), else
// `base` when on PATH, else empty.
std::string find_versioned(std::string_view base, int major);

}  // namespace dlfl::collect
