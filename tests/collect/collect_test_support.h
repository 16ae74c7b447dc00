// Helpers of the collect tests: temp directories, running commands, reading spectra.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"

#include "../support/test_files.h"

namespace dlfl::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

// Runs a shell command line, capturing stdout and stderr through files.
inline CommandResult run_shell(const std::string& command) {
  TempDir scratch;
  const auto out = scratch / "stdout", err = scratch / "stderr";
  const std::string line = command + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(line.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// A kill matrix (mutant_runner.h) as "mutant: killing tests" lines, one per mutant.
inline std::vector<std::string> kill_lines(const Spectrum& k) {
  std::vector<std::string> out(k.element_count());
  for (std::size_t m = 0; m < k.element_count(); ++m) {
    out[m] = k.element_name(m) + ":";
    for (const std::uint32_t t : k.coverage().tests_of(m)) out[m] += " " + k.tests()[t].name;
  }
  return out;
}

// Index of the test named `name`, or -1.
inline long test_index(const Spectrum& s, const std::string& name) {
  for (std::size_t t = 0; t < s.test_count(); ++t)
    if (s.tests()[t].name == name) return static_cast<long>(t);
  return -1;
}

// The lines of `file` that test `name` covers.
inline std::set<std::uint32_t> covered_lines(const Spectrum& s, const std::string& name, const std::string& file) {
  std::set<std::uint32_t> lines;
  const long t = test_index(s, name);
  if (t < 0) return lines;
  for (std::uint32_t e = 0; e < s.element_count(); ++e)
    if (s.file(e) == file && s.coverage().covers(static_cast<std::size_t>(t), e)) lines.insert(s.element(e).first_line);
  return lines;
}

// All element lines of `file` with their function names.
inline std::map<std::uint32_t, std::string> element_lines(const Spectrum& s, const std::string& file) {
  std::map<std::uint32_t, std::string> lines;
  for (std::uint32_t e = 0; e < s.element_count(); ++e)
    if (s.file(e) == file) lines.emplace(s.element(e).first_line, std::string(s.function(e)));
  return lines;
}

}  // namespace dlfl::testing
