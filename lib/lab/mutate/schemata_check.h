// Compiling a mutant schemata without building it: clang's syntax and semantic checks of
// the translation units with the rewritten files laid over the originals in memory, so
// the mutants that do not compile can be found and dropped one by one.
#pragma once

#include <clang/Tooling/CompilationDatabase.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dlfl::mutate::detail {

struct CompileError {
  std::string unit;     // the translation unit, as the database spells it
  std::string path;     // the file the error is in (real path; empty: no location)
  std::uint64_t offset = 0;  // byte offset in that file's (rewritten) text
  std::string message;
  // A mismatch of `?:` operand types that clang only warns about (and counts as an error
  // here) but GCC rejects in C: it matters only in a mutant's code (kMismatchErrors).
  bool mismatch = false;
};

// Arguments that make clang report, as errors, the `?:` operand mismatches GCC rejects in
// C under -pedantic-errors (a pointer and an integer, incompatible pointers).
// Every other warning stays off.
inline const char* const kMismatchErrors[] = {"-Wno-everything", "-Werror=conditional-type-mismatch",
                                              "-Werror=pointer-type-mismatch"};

// Parses `units` (adjusted as every mutation pass does) with `overlays` (real path →
// text) in place of the files on disk, and returns every error clang reports, located
// where it was written (the expansion of a macro). A unit clang cannot run at all gives
// one error without a path.
std::vector<CompileError> compile_errors(const clang::tooling::CompilationDatabase& db,
                                         const std::vector<std::string>& units,
                                         const std::map<std::string, std::string>& overlays,
                                         const std::vector<std::string>& extra_args);

}  // namespace dlfl::mutate::detail
