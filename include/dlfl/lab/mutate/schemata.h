// write_schemata(): a mutant schemata build (Untch, Offutt and Harrold, ISSTA 1993): many
// mutants compiled into ONE copy of the project, each behind a switch that the program
// reads once from an environment variable, so that running mutant N costs a process
// start, not a build. Clang libTooling; available with DLFL_HAVE_MUTATE.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/mutate/mutant.h"

namespace dlfl::mutate {

struct SchemataOptions {
  // Directory holding compile_commands.json: the build the mutants were found in.
  std::filesystem::path build_dir;
  // The source root the mutants' files are relative to (MutateOptions::root).
  std::filesystem::path root;
  // Where the schemata tree goes: a copy of root (build outputs and hidden entries left
  // out) with the mutated files rewritten. Created; files whose text did not change since
  // an earlier run keep their modification time, so its build stays incremental.
  std::filesystem::path tree;
  std::string switch_variable = "DLFL_MUTANT";
  std::vector<std::string> extra_args;  // appended to every compile command
  // Rounds of compiling and dropping before the mutants of the units that still fail are
  // all dropped.
  unsigned max_rounds = 8;
  std::function<void(std::string_view)> log;  // progress lines (default: silent)
};

struct SchemataMutant {
  std::uint32_t number = 0;  // the switch value that activates it
  Mutant mutant;
};

struct Schemata {
  std::vector<SchemataMutant> mutants;  // compiled in; numbered 1, 2, ... in input order
  // Left out, each alone: mutants clang could not compile in the schemata (a constant
  // expression, a type mismatch of the two choices, device code that cannot read the
  // switch, ...), and mutants no switch can guard (in a declaration or outside a body).
  std::size_t dropped_uncompilable = 0;
  std::size_t dropped_unguardable = 0;
  std::vector<std::filesystem::path> rewritten;  // files under `tree` holding mutants
};

// Compiles `mutants` (from find_mutants with the same build_dir and root) into a schemata
// tree. Every unit that includes a rewritten file is compiled by clang (syntax and
// semantics, in memory) until none reports an error: errors inside a mutant's code drop
// that mutant, errors at a place that cannot hold a switch drop the mutants there, and
// errors nobody can be blamed for are narrowed down by halving the candidates. Numbers
// never change with what is dropped: mutant k of the input is always number k + 1. With
// no active mutant the tree's program is the original's. Throws dlfl::Error for an
// unreadable compilation database, a mutant whose file is not under root, units clang
// cannot compile without any mutant, or a tree that cannot be written.
Schemata write_schemata(const std::vector<Mutant>& mutants, const SchemataOptions& options);

// Copies options.root into options.tree as write_schemata() copies it (build outputs and
// hidden entries left out), without any mutant: the plain build that a schemata build's
// cost is measured against. Needs no compilation database. Throws dlfl::Error (or
// std::filesystem::filesystem_error) when the tree cannot be written.
void write_plain_tree(const SchemataOptions& options);

}  // namespace dlfl::mutate
