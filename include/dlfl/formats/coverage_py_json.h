// coverage.py's JSON report with per-test contexts (`coverage json --show-contexts`, as
// written by python/dlfl_pytest or `pytest --cov-context=test`), read as plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::io {

struct CoveragePyLine {
  std::uint32_t line = 0;
  std::vector<std::uint32_t> contexts;  // ids into CoveragePyData::contexts, ascending, no duplicate
};

struct CoveragePyFile {
  std::string path;                       // as coverage.py names it: relative to its run's directory, or absolute
  std::vector<std::uint32_t> statements;  // executable lines (executed and missing), ascending
  std::vector<CoveragePyLine> covered;    // lines run inside a test context, ascending by line
  // Line -> enclosing function's qualified name, from the report's "functions" object
  // (coverage.py >= 7.5; empty for older versions, whose JSON has no functions).
  std::map<std::uint32_t, std::string> function_of_line;
};

struct CoveragePyData {
  std::string version;                // meta.version
  std::vector<std::string> contexts;  // test names, first met first (see coverage_py_test_name)
  std::vector<CoveragePyFile> files;  // in the report's order
};

// The test a dynamic context stands for: the context with pytest-cov's phase suffix
// (`|run`, `|setup`, `|teardown`) removed; "" (the empty context: imports, code outside
// any test) stays "".
std::string_view coverage_py_test_name(std::string_view context);

// Parses a report; `source` names it in errors. Contexts of one test (its phases) become
// one; lines run only in the empty context are statements without a test. Throws
// dlfl::Error "SOURCE[:LINE]: ..." for text that is not JSON, JSON that is not a coverage.py
// report, a report without contexts (written without --show-contexts) or whose only
// context is the empty one (coverage ran without per-test contexts), and for values of the
// wrong type.
CoveragePyData parse_coverage_py_json(std::string_view text, const std::string& source);

// Reads and parses a file; throws dlfl::Error "PATH: ..." when it cannot be read, and
// refuses one over kMaxCoveragePyJsonBytes before reading it. JSON nested deeper than
// io::kMaxJsonDepth is refused before it is parsed.
CoveragePyData read_coverage_py_json(const std::filesystem::path& path);

// The largest coverage.py JSON report read (512 MiB): with contexts, every covered line
// lists the tests that ran it, so a large suite's report runs to hundreds of MB; parsed,
// it costs several times its size, and beyond this a spectrum is better collected per
// test (`dlfl collect --pytest`) than from one report.
inline constexpr std::size_t kMaxCoveragePyJsonBytes = std::size_t{512} << 20;

}  // namespace dlfl::io
