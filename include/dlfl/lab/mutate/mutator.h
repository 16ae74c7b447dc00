// find_mutants(): compilation database + file globs → every mutant the selected operators
// make (Clang libTooling). Only available when dlfl was built with the Clang 14
// development packages (DLFL_HAVE_MUTATE is then defined for users of dlfl_lab_mutate).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/mutate/mutant.h"
#include "dlfl/lab/mutate/operators.h"

namespace dlfl::mutate {

struct MutateOptions {
  // Directory holding compile_commands.json.
  std::filesystem::path build_dir;
  // Mutant paths (and patches) are relative to it; only files under it are mutated.
  // Default: the current directory.
  std::filesystem::path root;
  // Globs, relative to root (or absolute), of the files that may be mutated: `*` and `?`
  // stay within a path segment, `**` spans segments ("src/*.cpp", "include/**.h").
  // Empty = every non-system file under root. Headers are mutated through the
  // translation units that include them.
  std::vector<std::string> files;
  // Globs of files never mutated (e.g. "tests/**"); the build directory never is.
  std::vector<std::string> exclude;
  std::vector<Operator> operators;      // empty = all
  std::vector<std::string> extra_args;  // appended to every compile command
  // Clang errors in a translation unit fail the run unless this is set (its mutants then
  // come from the AST clang recovered).
  bool allow_errors = false;
  // Progress and diagnostics, one line each (default: silent).
  std::function<void(std::string_view)> log;
};

// Every mutant, sorted by (file, offset, operator, replacement), ids assigned. Mutants
// never touch macro expansions, system headers or files outside the selection, and
// operators that make the same edit yield one mutant (the earlier operator in the
// catalog wins). Throws dlfl::Error for a missing or unreadable compilation database, a
// selection that matches no translation unit, or clang errors (unless allow_errors).
std::vector<Mutant> find_mutants(const MutateOptions& options);

}  // namespace dlfl::mutate
