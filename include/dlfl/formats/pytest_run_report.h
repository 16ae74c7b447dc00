// The run report python/dlfl_pytest writes (DIR/pytest-run.json): every test's runs and
// outcomes, its extrinsic conditions and the function table of the measured Python files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::io {

struct PytestRunTest {
  std::string name;  // the pytest node id
  std::uint32_t runs = 0, failed = 0, skipped = 0;  // skipped runs count in `runs`
  std::vector<std::string> extrinsic;  // `name=value`: parametrize values, then named environment variables
};

struct PythonFunction {
  std::uint32_t first_line = 0, last_line = 0;  // inclusive, decorators included
  std::string name;                             // qualified: `Class.method`, `f.<locals>.g`
};

// What the pytest processes loaded (absent from reports of older plugins: known = false).
struct PytestNativeLibraries {
  bool known = false;
  bool runtime = false;  // libdlfl_rt was loaded
  struct Image {
    std::string path;         // an instrumented image that registered probes
    std::uint64_t map_id = 0;  // the map id it registered
  };
  std::vector<Image> images;
  std::vector<std::string> uninstrumented;  // extension modules of the project without probes
};

// A --dlfl-cov source and how many measured files belong to it (0: never imported).
struct PytestCoverageSource {
  std::string source;
  std::uint32_t files = 0;
};

struct PytestRunReport {
  std::filesystem::path root;  // the directory pytest ran in (coverage.py's paths are relative to it)
  std::uint32_t repeat = 1;
  std::string coverage_json;   // file name of the coverage.py report beside it; "" when none was written
  std::vector<PytestRunTest> tests;  // in the order they finished
  std::map<std::string, std::vector<PythonFunction>> functions;  // by coverage.py's file name
  std::vector<PytestCoverageSource> coverage_sources;
  PytestNativeLibraries native;
};

// Throws dlfl::Error "SOURCE[:LINE]: ..." for text that is not JSON or not a dlfl-pytest-run
// report of version 1, and for members of the wrong type or an unknown outcome.
// JSON nested deeper than io::kMaxJsonDepth is refused before it is parsed.
PytestRunReport parse_pytest_run_report(std::string_view text, const std::string& source);
// A file over kMaxPytestRunReportBytes is refused before it is read ("PATH: pytest run
// report of N bytes is larger than the 256 MiB limit").
PytestRunReport read_pytest_run_report(const std::filesystem::path& path);

// The largest pytest-run.json read (256 MiB): a test's record is a name, counts and a few
// extension names, about 200 bytes, so the bound is a million tests; parsed, a report
// costs several times its size.
inline constexpr std::size_t kMaxPytestRunReportBytes = std::size_t{256} << 20;

}  // namespace dlfl::io
