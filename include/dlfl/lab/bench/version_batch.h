// run_versions(): `dlfl versions`: an original program and its faulty versions (the
// classic SIR-style subject: directories or patches), each built, its `--tests/--cmd`
// suite collected with per-test gcov and judged by a differential oracle against the
// original's build, ranked with each formula and evaluated against the ground truth its
// diff shows (version_truth.h). Resumable, in the store and tables of `dlfl bench`
// (results.jsonl, results.csv that `dlfl compare` reads, discarded.csv, summary.md).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/bench/bench_progress.h"
#include "dlfl/lab/bench/bench_summary.h"
#include "dlfl/lab/bench/fault_record.h"
#include "dlfl/lab/eval/metrics.h"

namespace dlfl::bench {

inline constexpr std::string_view kVersionsConfigFileName = "versions-config.json";

struct VersionsOptions {
  std::filesystem::path original;               // the original program's source tree
  // Each a directory laid over a copy of the original (the whole faulty tree, or only the
  // files that differ) or a patch file (applied with -p`patch_strip`).
  std::vector<std::filesystem::path> versions;
  unsigned patch_strip = 1;  // leading path components removed from a patch's names (patch -p)
  std::string name;                             // subject name in the records; empty: original's dir name
  // Shell command that configures and builds {source} into {build} with {cflags} and
  // {ldflags} (the gcov flags), {jobs} and {launcher} as in subject.h.
  std::string build = "cmake -S {source} -B {build} -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_C_FLAGS='-O0 {cflags}' "
                      "-DCMAKE_CXX_FLAGS='-O0 {cflags}' -DCMAKE_EXE_LINKER_FLAGS='{ldflags}' {launcher} && "
                      "cmake --build {build} -j {jobs}";
  std::filesystem::path tests;  // test names, one a line (collect --tests)
  // One test: `{}` is its name (quoted), {source} and {build} the version's tree and
  // build. The reference (oracle) runs the same template with the original's.
  std::string command;
  std::vector<std::string> excludes;  // path globs left out of the spectra (collect --exclude)
  std::filesystem::path crash_dump_library;  // libdlfl_crash_dump.so; empty: none
  std::filesystem::path out_dir;
  std::filesystem::path work_dir;  // builds; default out_dir/work
  unsigned jobs = 1;               // versions at once
  unsigned test_jobs = 0;          // tests at once per version; 0: cores / jobs
  std::vector<std::string> formulas{"ochiai", "dstar2", "tarantula", "barinel"};
  std::vector<std::uint64_t> top_n{1, 3, 5, 10};
  // Metric conventions (eval/metrics.h). The elements are gcov's executable lines of the
  // compiled files, so `instrumented` is EXAM over the executable lines; `executed` over
  // those some test ran. Top-N under the average tie rule as expected value or hits.
  eval::ExamBase exam_base = eval::ExamBase::instrumented;
  eval::TopNRule top_n_rule = eval::TopNRule::expected;
  std::chrono::seconds build_timeout{600};
  std::chrono::seconds test_timeout{10};      // one test
  std::chrono::seconds version_timeout{1800};  // all tests of one version
  std::size_t limit = 0;                       // stop after this many newly finished versions
  const std::atomic<bool>* interrupt = nullptr;
  BenchProgress* progress = nullptr;
  std::function<void(std::string_view)> log;  // per-version notes (discards' details)
};

struct VersionsResult {
  std::vector<FaultRecord> records;  // every version stored in the output directory
  std::size_t selected = 0, resumed = 0, pending = 0;
  bool interrupted = false;
  double seconds = 0;
};

// The summary of a versions run (bench_summary.h), headed "dlfl versions: N faulty versions".
SummaryOptions version_summary_options(const std::vector<std::uint64_t>& top_n, double wall_seconds);

// The version's name: a directory's name, a patch file's name without .patch/.diff.
std::string version_name(const std::filesystem::path& version);

// Checks the inputs before writing anything: throws dlfl::Error for a missing original,
// test list or version, two versions of one name, a command without `{}`, an unknown
// formula or placeholder. Builds the original (an error when that fails), then each
// pending version on `jobs` workers. Discards (kept = false, reason): "patch fails"
// (git apply's message), "build fails", "timeout", "tests fail to run", "no test fails",
// "every test fails", "no executable change" (no changed line near an executable one).
// Then also throws for results of another configuration in out_dir (original, its
// digest, build, command, tests, formulas, top N or metric conventions).
VersionsResult run_versions(const VersionsOptions& options);

}  // namespace dlfl::bench
