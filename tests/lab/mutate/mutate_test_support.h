// Test fixture for the mutation operators: a temporary project with a compilation
// database, and the checks every mutant must pass (the patch applies with `patch -p1`,
// the result equals the recorded edit, and the mutated file still compiles).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dlfl/lab/mutate/mutant_output.h"
#include "dlfl/lab/mutate/mutator.h"
#include "../../support/test_files.h"

namespace dlfl::mutate::testing {

namespace fs = std::filesystem;

using dlfl::testing::slurp;
using dlfl::testing::write_text;

// Runs a shell command; returns its exit status, output (stdout + stderr) in `out`.
inline int run(const std::string& command, std::string* out = nullptr) {
  static const fs::path log = fs::temp_directory_path() / ("dlfl-mutate-test-" + std::to_string(getpid()) + ".log");
  const int status = std::system((command + " >" + log.string() + " 2>&1").c_str());
  if (out) *out = slurp(log);
  fs::remove(log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// What a test expects of one mutant.
struct Expected {
  std::uint32_t line;
  std::string original;
  std::string replacement;
};

inline std::ostream& operator<<(std::ostream& os, const Expected& e) {
  return os << "{" << e.line << ", \"" << e.original << "\" -> \"" << e.replacement << "\"}";
}

// A temporary source tree: root/ with sources, root/build/compile_commands.json.
class Project {
 public:
  Project() {
    std::random_device rd;
    root_ = fs::temp_directory_path() / ("dlfl-mutate-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(root_ / "build");
    root_ = fs::canonical(root_);
  }
  ~Project() { fs::remove_all(root_); }
  Project(const Project&) = delete;
  Project& operator=(const Project&) = delete;

  const fs::path& root() const { return root_; }
  fs::path build() const { return root_ / "build"; }

  // Extra compiler flags for every translation unit added after this call.
  void set_flags(std::vector<std::string> flags) { flags_ = std::move(flags); }

  // Writes a file; a .cpp/.cu/.c file also becomes a translation unit (nvcc command for
  // .cu, gcc -std=c99 for .c).
  void add(const std::string& rel, const std::string& text) {
    write_text(root_ / rel, text);
    const fs::path p(rel);
    if (p.extension() == ".cpp") units_.push_back({rel, {"g++", "-std=c++20"}, flags_});
    if (p.extension() == ".cu") units_.push_back({rel, {"/usr/local/cuda/bin/nvcc", "-std=c++17"}, flags_});
    if (p.extension() == ".c") units_.push_back({rel, {"gcc", "-std=c99"}, flags_});
    nlohmann::json db = nlohmann::json::array();
    for (const auto& [file, compiler, flags] : units_) {
      std::vector<std::string> args = compiler;
      args.insert(args.end(), flags.begin(), flags.end());
      args.insert(args.end(), {"-I" + root_.string(), "-c", file, "-o", file + ".o"});
      db.push_back({{"directory", root_.string()}, {"file", (root_ / file).string()}, {"arguments", args}});
    }
    write_text(build() / "compile_commands.json", db.dump(2));
  }

  std::vector<Mutant> mutants(const std::vector<Operator>& ops, const std::vector<std::string>& files = {}) const {
    MutateOptions o;
    o.build_dir = build();
    o.root = root_;
    o.files = files;
    o.operators = ops;
    return find_mutants(o);
  }

  // Applies the mutant's patch with `patch -p1` to a copy of the file; returns the result.
  std::string patched(const Mutant& m) const {
    const fs::path scratch = root_ / ".scratch";
    fs::remove_all(scratch);
    fs::create_directories((scratch / m.file).parent_path());
    fs::copy_file(root_ / m.file, scratch / m.file);
    write_text(scratch / "m.patch", unified_diff(slurp(root_ / m.file), m));
    std::string out;
    const int status = run("cd " + scratch.string() + " && patch -p1 --batch < m.patch", &out);
    EXPECT_EQ(status, 0) << "patch -p1 failed for " << m.id << ":\n" << out << slurp(scratch / "m.patch");
    return slurp(scratch / m.file);
  }

  // Whether `text`, standing in for file `rel`, compiles (syntax and types).
  bool compiles(const std::string& rel, const std::string& text, std::string* diagnostics) const {
    const fs::path file = root_ / ".check" / rel;
    write_text(file, text);
    const bool cuda = fs::path(rel).extension() == ".cu";
    const std::string command =
        cuda ? "clang++-14 -x cuda -nocudainc -nocudalib --cuda-gpu-arch=sm_70 --cuda-host-only "
               "-Wno-unknown-cuda-version -std=c++17 -fsyntax-only -I " DLFL_CUDA_STUB_DIR " -I " +
                   root_.string() + " " + file.string()
             : "g++ -std=c++20 -fsyntax-only -I " + root_.string() + " " + file.string();
    return run(command, diagnostics) == 0;
  }

 private:
  fs::path root_;
  struct Unit {
    std::string file;
    std::vector<std::string> compiler;  // the command's first arguments
    std::vector<std::string> flags;
  };
  std::vector<Unit> units_;
  std::vector<std::string> flags_;
};

// Runs one operator over `source` (written as `name`) and checks the mutants are exactly
// `expected` (in file order), that each patch applies and gives the recorded edit, and
// that each mutated file compiles. Returns the mutants for further checks.
inline std::vector<Mutant> expect_mutants(Operator op, const std::string& name, const std::string& source,
                                          const std::vector<Expected>& expected) {
  Project project;
  project.add(name, source);
  std::string diagnostics;
  EXPECT_TRUE(project.compiles(name, source, &diagnostics)) << "the test source itself does not compile:\n"
                                                            << diagnostics;
  const auto mutants = project.mutants({op});
  std::vector<Expected> got;
  for (const auto& m : mutants) got.push_back({m.line, m.original, m.replacement});
  EXPECT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < std::max(got.size(), expected.size()); ++i) {
    const Expected none{0, "<none>", "<none>"};
    const Expected& g = i < got.size() ? got[i] : none;
    const Expected& e = i < expected.size() ? expected[i] : none;
    EXPECT_TRUE(g.line == e.line && g.original == e.original && g.replacement == e.replacement)
        << "mutant " << i << ": got " << g << ", expected " << e;
  }
  const auto& info = operator_info(op);
  for (const auto& m : mutants) {
    EXPECT_EQ(m.op, info.name);
    EXPECT_EQ(m.bug_type, info.bug_type);
    EXPECT_EQ(m.file, name);
    const std::string text = project.patched(m);
    EXPECT_EQ(text, apply_mutant(source, m)) << m.id;
    EXPECT_TRUE(project.compiles(name, text, &diagnostics)) << m.id << " does not compile:\n" << diagnostics;
  }
  return mutants;
}

}  // namespace dlfl::mutate::testing
