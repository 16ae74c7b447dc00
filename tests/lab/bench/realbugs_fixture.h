// The fixture study of scripts/realbugs.sh: the calc fixture as the DL side (a
// manifest-shaped list, reproduce_fixture/: calc#1 kept, calc#5 not building) and ministr
// as the traditional side (a BugsC++ checkout, bugscpp_fixture/: ministr#1 kept, ministr#2
// discarded), with a recipe for one side's project. For the script's tests and the Slurm
// tests (tests/slurm), which run the same study as job arrays.
#pragma once

#include <filesystem>
#include <sstream>
#include <string>

#include "../../support/shell_output.h"
#include "../../support/test_files.h"

namespace dlfl::testing {

struct RealbugsFixture {
  std::filesystem::path bugscpp;  // the BugsC++ checkout (--bugscpp)
  std::filesystem::path repos;    // the clones (--repos)
  std::filesystem::path lists;    // dl.jsonl, traditional.jsonl, recipes/ (--lists)
};

// Makes the fixture under `dir`; an empty result with the failing command in `error`.
inline RealbugsFixture make_realbugs_fixture(const std::filesystem::path& dir, const std::string& reproduce_fixture,
                                             const std::string& bugscpp_fixture, std::string& error) {
  namespace fs = std::filesystem;
  RealbugsFixture f{dir / "bugscpp", dir / "bugscpp" / "clones", dir / "lists"};
  for (const std::string& command : {"sh " + (fs::path(bugscpp_fixture) / "make_fixture.sh").string() + " " + f.bugscpp.string(),
                                    "sh " + (fs::path(reproduce_fixture) / "make_clone.sh").string() + " " +
                                        (f.repos / "calc").string()}) {
    const ShellRun r = capture_shell(command + " 2>&1");
    if (r.status != 0) {
      error = command + ":\n" + r.out;
      return {};
    }
  }
  // The DL list: two calc bugs in the manifest's shape (one kept, one that does not build).
  std::istringstream in(slurp(fs::path(reproduce_fixture) / "manifest.jsonl.in"));
  std::string line, dl;
  while (std::getline(in, line)) {
    for (int k = 1; k <= 6; ++k) {
      const std::string tag = "@FIX" + std::to_string(k) + "@";
      if (const auto at = line.find(tag); at != std::string::npos) {
        const std::string hash = shell_output("git -C " + (f.repos / "calc").string() + " rev-parse fix" + std::to_string(k));
        line.replace(at, tag.size(), hash.substr(0, 40));
      }
    }
    if (line.find("\"fixture+calc#1\"") != std::string::npos || line.find("\"fixture+calc#5\"") != std::string::npos)
      dl += line + "\n";
  }
  fs::create_directories(f.lists / "recipes");
  write_text(f.lists / "dl.jsonl", dl);
  write_text(f.lists / "traditional.jsonl",
             "{\"id\": \"ministr#1\", \"project\": \"ministr\"}\n{\"id\": \"ministr#2\", \"project\": \"ministr\"}\n");
  // A recipe for a project of one side only: the other side's run must not be given it.
  write_text(f.lists / "recipes" / "fixture+calc.json", R"({"timeouts": {"test": 120}})");
  return f;
}

}  // namespace dlfl::testing
