// Shared pieces of the instrumenter tests: scratch projects with a compilation database,
// running shell commands, and covered lines per test read back from a runtime snapshot.
#pragma once

#include <gtest/gtest.h>
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

#include "dlfl/collect/runtime_snapshot.h"
#include "dlfl/probe_map/probe_map.h"
#include "../support/have_program.h"
#include "../support/test_files.h"

namespace dlfl::testing {

namespace fs = std::filesystem;

struct Shell {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs `command` with /bin/sh, capturing its output.
inline Shell sh(const std::string& command) {
  static TempDir scratch("sh");
  const fs::path out = scratch / "out";
  const int status = std::system((command + " >" + out.string() + " 2>&1").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out)};
}


// compile_commands.json for `files` (relative to `dir`), each compiled by `compiler` with
// `flags`.
inline void write_compile_commands(const fs::path& dir, const std::vector<std::string>& files,
                                   const std::string& compiler, const std::string& flags) {
  std::string json = "[\n";
  for (std::size_t i = 0; i < files.size(); ++i) {
    json += "  {\"directory\": \"" + dir.string() + "\", \"command\": \"" + compiler + " " + flags + " -c " + files[i] +
            " -o " + files[i] + ".o\", \"file\": \"" + (dir / files[i]).string() + "\"}";
    json += i + 1 < files.size() ? ",\n" : "\n";
  }
  write_text(dir / "compile_commands.json", json + "]\n");
}

// file → line → names of the tests whose probes reached that line.
using LineCoverage = std::map<std::string, std::map<std::uint32_t, std::set<std::string>>>;

// Every line of the probe map (with no tests yet), then the tests of a snapshot added.
inline LineCoverage covered_lines(const instrument::ProbeMap& map, const collect::RuntimeSnapshot& snap) {
  LineCoverage out;
  std::map<std::uint32_t, std::vector<std::pair<std::string, std::uint32_t>>> lines_of_probe;
  for (const auto& s : map.sites) {
    out[map.files[s.file]][s.line];
    lines_of_probe[s.probe].push_back({map.files[s.file], s.line});
  }
  for (const auto& t : snap.tests)
    for (const auto p : t.probes)
      for (const auto& [file, line] : lines_of_probe[p]) out[file][line].insert(t.name);
  return out;
}

// file → line → expected scenarios, from the `//@ a b` markers of `files` under `dir`
// (`-`: no scenario; a `|block c d` part overrides the list for basic-block probes).
inline LineCoverage markers(const fs::path& dir, const std::vector<std::string>& files, bool block) {
  LineCoverage out;
  for (const auto& name : files) {
    std::istringstream in(slurp(dir / name));
    std::string text;
    for (std::uint32_t line = 1; std::getline(in, text); ++line) {
      const auto at = text.find("//@");
      if (at == std::string::npos) continue;
      std::string spec = text.substr(at + 3);
      if (const auto bar = spec.find("|block"); bar != std::string::npos)
        spec = block ? spec.substr(bar + 6) : spec.substr(0, bar);
      auto& names = out[name][line];
      std::istringstream words(spec);
      for (std::string w; words >> w;)
        if (w != "-") names.insert(w);
    }
  }
  return out;
}

// Every marked line is probed and reached by exactly its scenarios; every probed line is
// marked.
inline void expect_coverage_matches_markers(const LineCoverage& actual, const LineCoverage& expected) {
  for (const auto& [file, lines] : expected)
    for (const auto& [line, names] : lines) {
      if (!actual.count(file) || !actual.at(file).count(line)) {
        ADD_FAILURE() << file << ":" << line << " has no probe";
        continue;
      }
      EXPECT_EQ(actual.at(file).at(line), names) << file << ":" << line;
    }
  for (const auto& [file, lines] : actual)
    for (const auto& [line, names] : lines)
      EXPECT_TRUE(expected.count(file) && expected.at(file).count(line))
          << file << ":" << line << " is probed but has no //@ marker";
}

}  // namespace dlfl::testing
