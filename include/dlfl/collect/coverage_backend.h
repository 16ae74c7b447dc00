// CoverageBackend: how one test's coverage is captured and read back (gcov, llvm-cov, or
// dlfl's own runtime in programs built from a `dlfl instrument` tree).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/collect/path_filter.h"

namespace dlfl {
class SpectrumBuilder;
}

namespace dlfl::collect {

enum class CoverageKind : unsigned char { automatic, gcov, llvm, runtime };

// "auto", "gcov", "llvm", "runtime".
std::string_view coverage_kind_name(CoverageKind kind) noexcept;

// One instrumented line and how often it ran (0 = instrumented but not executed).
struct LineCount {
  std::uint32_t line = 0;
  std::uint64_t count = 0;
};

// A function's source extent, for naming the function that encloses a line.
struct FunctionRange {
  std::string name;  // demangled: "add(int, int)", "int sq<int>(int)"
  std::uint32_t first_line = 0;
  std::uint32_t last_line = 0;  // inclusive
};

// One source file's coverage in one report.
struct FileCoverage {
  std::string path;  // as the tool reports it; relative paths are relative to `base`
  std::filesystem::path base;
  std::vector<LineCount> lines;  // any order; a line may repeat (template instances)
  std::vector<FunctionRange> functions;
};

// What one test left behind, parsed. A file may appear several times (a header in many
// translation units); a line counts as covered when any of its entries has count > 0.
// Function ranges may come with every report or only some: consumers take the union.
struct CoverageReport {
  std::vector<FileCoverage> files;
};

// Tool overrides; empty means "find the one that matches the compiler" (see backends).
struct CoverageTools {
  std::string gcov;
  std::string llvm_profdata;
  std::string llvm_cov;
};

class CoverageBackend {
 public:
  virtual ~CoverageBackend() = default;
  virtual CoverageKind kind() const noexcept = 0;

  // Environment ("NAME=VALUE") for the process(es) of test `test` so its coverage goes to
  // `dir` and only there (the directory exists and is the test's own).
  virtual std::vector<std::string> environment(const std::filesystem::path& dir, const std::string& test) const = 0;

  // Reads the coverage a test left in `dir`; nullopt when it left none. Thread-safe:
  // called from several workers at once. Throws dlfl::Error naming the test and the
  // file for unreadable data, a failing or mismatched tool.
  virtual std::optional<CoverageReport> read(const std::filesystem::path& dir, const std::string& test,
                                             const std::atomic<bool>* cancel) const = 0;

  // True when a test killed by a signal or a timeout can still leave coverage.
  virtual bool keeps_coverage_of_killed_tests() const noexcept = 0;

  // One line for the log: tools and mode, e.g. "gcov 12.2.0 (gcov-12)".
  virtual std::string description() const = 0;

  // A backend whose elements are known before any test runs (the runtime's probe map)
  // adds them to the empty `builder` and returns true; its tests are then read with
  // read_elements() and can go into the builder as soon as they end. Others return false.
  virtual bool add_known_elements(SpectrumBuilder& /*builder*/) const { return false; }

  // For add_known_elements() backends: the ids of the elements test `test` covered, from
  // what it left in `dir`; nullopt when it left nothing. Extrinsic elements the test
  // covered (`rank=1` for the MPI rank of one of its processes) go to `extrinsic` by
  // label: the caller adds them to the spectrum. Thread-safe; throws like read().
  virtual std::optional<std::vector<std::uint32_t>> read_elements(const std::filesystem::path& /*dir*/,
                                                                  const std::string& /*test*/,
                                                                  std::vector<std::string>& /*extrinsic*/) const {
    return std::nullopt;
  }
};

// gcov: binaries built with `--coverage` by gcc. Each test gets GCOV_PREFIX=DIR with
// GCOV_PREFIX_STRIP=0, so its .gcda files land under DIR + their absolute build path;
// read() links each build-tree .gcno next to its .gcda and runs
// `gcov --json-format --stdout` over them. The tool is `tools.gcov`, else `gcov-MAJOR`
// for the gcc that wrote `sample_gcno` (when given and on PATH), else `gcov`; its
// version is checked against every .gcno's version stamp. With a `source_root`, gcov
// is told to print only files under it (a speed-up; the PathFilter still decides).
// Throws dlfl::Error when the tool is missing or mismatched.
std::unique_ptr<CoverageBackend> make_gcov_backend(const CoverageTools& tools,
                                                   const std::filesystem::path& sample_gcno = {},
                                                   const std::filesystem::path& source_root = {});

// LLVM source-based coverage: binaries built with `-fprofile-instr-generate
// -fcoverage-mapping`. Each test gets LLVM_PROFILE_FILE=DIR/%p.profraw (with
// `continuous`, %c%p-%m: a file per module, since each maps its counters onto its file);
// read() runs `llvm-profdata merge` and `llvm-cov export -format=lcov`
// over `objects` (the instrumented executables and libraries; the first is the main
// one). Tools: `tools.*`, else the `-MAJOR` versions for the clang that built the first
// object (from its .comment section), else the plain names; checked for version.
// `continuous` turns on continuous mode (counters synced to the mapped file as they
// change, so a crash keeps coverage): only for objects built with
// `-mllvm -runtime-counter-relocation` (see BinaryInfo::llvm_continuous_capable).
// Throws dlfl::Error when objects is empty or a tool is missing or mismatched.
std::unique_ptr<CoverageBackend> make_llvm_backend(const CoverageTools& tools,
                                                   std::vector<std::filesystem::path> objects,
                                                   bool continuous, bool skip_system_files);

// dlfl's runtime: programs built from a `dlfl instrument` tree and linked with libdlfl_rt.
// Each test's processes get DLFL_RT_FILE=DIR/rt and DLFL_RT_TEST=NAME, so every process of
// the test (also the ones it forks or starts) writes DIR/rt.PID with everything it reached,
// kept when it crashes or is killed; all of them are the test's coverage. Elements are the
// probe map's lines, named as in collect_with_runtime() (relative to the map's root unless
// `paths` is given; an empty source_root then stands for the map's root). Throws
// dlfl::Error for an unreadable probe map or no element left after the filter; read_elements
// throws, naming the test, for a snapshot of another probe map or a corrupt one.
std::unique_ptr<CoverageBackend> make_runtime_backend(const std::filesystem::path& probe_map,
                                                      const std::optional<PathFilterOptions>& paths);

}  // namespace dlfl::collect
