// BinaryInfo: what an executable or shared library says about its coverage
// instrumentation, read from its ELF sections and symbols without running it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dlfl::collect {

struct BinaryInfo {
  bool elf = false;
  // LLVM source-based coverage: a `__llvm_covmap` section (-fcoverage-mapping) and the
  // profile counters `__llvm_prf_cnts` (-fprofile-instr-generate). Section names
  // survive `strip`.
  bool llvm_coverage = false;
  // Whether LLVM_PROFILE_FILE's continuous mode (%c) works. On Linux, clang 14's runtime
  // syncs counters to the mapped file only when the code addresses its counters through
  // `__llvm_profile_counter_bias`, which the compiler defines only under
  // `-mllvm -runtime-counter-relocation`; otherwise the symbol is the runtime's weak
  // alias of `__llvm_profile_counter_bias_default` (same address), and %c fails with
  // "__llvm_profile_counter_bias is undefined", writing an empty profile. Needs the
  // symbol table (false for a stripped binary).
  bool llvm_continuous_capable = false;
  // gcov (gcc --coverage): the absolute .gcda paths compiled into the binary (each
  // object's gcov_info names its data file; found in the file's bytes, so also when
  // stripped). Empty when not built with --coverage.
  std::vector<std::string> gcda_paths;
  // Major versions from the .comment section ("GCC: (Debian 12.2.0-14) 12.2.0",
  // "Debian clang version 14.0.6"); 0 when absent.
  int gcc_major = 0;
  int clang_major = 0;
  // Started through the dynamic linker (a PT_INTERP program header): LD_PRELOAD works,
  // e.g. for dlfl's crash handler. False for static executables and for shared libraries.
  bool dynamic_executable = false;
  // An executable or a shared library (ELF type EXEC or DYN), not an object file, which
  // carries the same coverage sections.
  bool linked = false;
};

// Reads `path` (memory-mapped). A file that is not ELF gives elf = false and nothing
// else. Throws dlfl::Error "PATH: ..." when the file cannot be opened or read.
BinaryInfo probe_binary(const std::filesystem::path& path);

// The executables and shared libraries under `dir` (recursively, regular files with an
// execute permission bit; symbolic links are not followed, so a library's version links
// do not repeat it; CMake's CMakeFiles folders are left out) that carry LLVM coverage, in
// path order: what llvm-cov must be given to name the lines of a build tree whose tests
// run code from its shared libraries.
// Throws dlfl::Error "PATH: ..." when `dir` or a candidate cannot be read.
std::vector<std::filesystem::path> find_llvm_coverage_binaries(const std::filesystem::path& dir);

// The version stamp of a .gcno/.gcda file (4 characters, e.g. "B22*" for gcc 12.2) and
// the gcc major version it encodes (0 when unknown). Throws dlfl::Error "PATH: ..." when
// the file cannot be read or is not a gcov notes/data file.
struct GcovStamp {
  std::string stamp;
  int major = 0;
};
GcovStamp read_gcov_stamp(const std::filesystem::path& path);

// The gcc major version a stamp encodes: "B22*" → 12 (gcc ≥ 5: v[0] = 'A' + major / 10,
// v[1] = '0' + major % 10, v[2] = '0' + minor); "407*" → 4 (older). 0 when malformed.
int gcov_stamp_major(std::string_view stamp);

}  // namespace dlfl::collect
