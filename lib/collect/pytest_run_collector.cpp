// collect_pytest_run(): ONE spectrum of a pytest run across languages. Joins, by pytest
// node id, what python/dlfl_pytest left in its output directory (or the same files given
// one by one):
//  - the C++ lines each test ran: libdlfl_rt snapshots of an extension built from a
//    `dlfl instrument` tree (one file per process; elements named as the probe map's),
//  - the Python lines each test ran: coverage.py's JSON report with per-test contexts
//    (elements `file.py:LINE` with their function: from dlfl_pytest's ast-based table,
//    else coverage.py's own (>= 7.5), else found by indentation in the source),
//  - each test's runs and outcomes (failure weight k/N when k of N runs failed) and its
//    extrinsic conditions (`dtype=float16`, `device=cuda`, `ENV=value`), which become
//    extrinsic elements covered by the tests that ran under them.
// Any of the coverage sources may be missing (a C++-only or Python-only spectrum); the
// outcomes come from the run report, else from the snapshots' slots.
//
// Warns about silent gaps, each in a line that says what to check: an extension module of
// the project loaded without probes (a stale plain build imported instead of the
// instrumented one), a probe map but no instrumented code that ran, a probe map none of
// whose probes a test reached, a --dlfl-cov source none of whose files ran.
// Throws dlfl::Error (one line, naming the file) for unreadable or malformed inputs, no
// coverage source at all, coverage without any outcome source (coverage.py contexts alone
// say nothing about outcomes), or a run with no test.

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "collectors.h"
#include "dlfl/collect/probe_map_lookup.h"
#include "dlfl/collect/python_functions.h"
#include "dlfl/error.h"
#include "dlfl/formats/coverage_py_json.h"
#include "dlfl/formats/pytest_run_report.h"
#include "dlfl/files/text_file.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

// One test on its way into the joined spectrum.
struct JoinedTest {
  TestCase test;
  bool skipped = false;
  std::vector<std::uint32_t> elements;
  std::vector<std::string> extrinsic;
  std::string runs;  // "k/N" of a flaky test
};

TestCase outcome_of(const io::PytestRunTest& t) {
  const std::uint32_t counted = t.runs - t.skipped;
  if (t.failed == 0) return TestCase::pass(t.name);
  if (t.failed == counted) return TestCase::fail(t.name);
  return TestCase::flaky(t.name, t.failed, counted);
}

std::string read_source(const fs::path& path) {
  try {
    return io::read_file_bytes(path);  // a FIFO in the source tree must not hang the run
  } catch (const Error&) {
    return {};
  }
}

// Python file name -> its element name (nullopt: left out), the source's path on disk.
struct PythonNamer {
  fs::path run_root;  // where coverage.py's relative names start
  fs::path root;      // the request's source root (may be empty)
  std::vector<std::string> excludes;

  fs::path on_disk(const std::string& name) const {
    const fs::path p(name);
    return (p.is_absolute() || run_root.empty() ? p : run_root / p).lexically_normal();
  }
  std::optional<std::string> element_name(const std::string& name) const {
    std::string out = name;
    if (!root.empty()) {
      const fs::path rel = on_disk(name).lexically_relative(fs::weakly_canonical(root));
      if (rel.empty() || *rel.begin() == "..") {
        const fs::path rel2 = on_disk(name).lexically_relative(root.lexically_normal());
        if (rel2.empty() || *rel2.begin() == "..") return std::nullopt;
        out = rel2.generic_string();
      } else {
        out = rel.generic_string();
      }
    }
    for (const auto& glob : excludes)
      if (::fnmatch(glob.c_str(), out.c_str(), 0) == 0) return std::nullopt;
    return out;
  }
};

std::string function_name(const io::CoveragePyFile& file, std::uint32_t line, const io::PytestRunReport* report,
                          const PythonNamer& namer, std::map<std::string, std::vector<io::PythonFunction>>& found) {
  if (report) {
    const auto it = report->functions.find(file.path);
    if (it != report->functions.end() && !it->second.empty()) return std::string(python_function_at(it->second, line));
  }
  if (!file.function_of_line.empty()) {
    const auto it = file.function_of_line.find(line);
    return it == file.function_of_line.end() ? std::string() : it->second;
  }
  auto cached = found.find(file.path);
  if (cached == found.end())
    cached = found.emplace(file.path, find_python_functions(read_source(namer.on_disk(file.path)))).first;
  return std::string(python_function_at(cached->second, line));
}

// Where the probe map of a pytest run is when none is given: beside the instrumented
// images the report names, else in the report's directory or where the tests ran.
fs::path run_probe_map(const io::PytestRunReport* report, const fs::path& report_path) {
  std::vector<fs::path> images, dirs;
  if (report)
    for (const auto& image : report->native.images) images.emplace_back(image.path);
  if (!report_path.empty()) dirs.push_back(report_path.parent_path());
  if (report && !report->root.empty()) dirs.push_back(report->root);
  return find_probe_map_of_run(images, dirs);
}

// The gaps the plugin's record of the run shows (see collect_pytest_run).
void native_warnings(const io::PytestRunReport& report, bool python, std::vector<std::string>& warnings) {
  for (const auto& path : report.native.uninstrumented)
    warnings.push_back("the tests loaded " + path +
                       ", which has no dlfl probes: an old plain build was imported instead of the instrumented one? "
                       "rebuild it (python -m dlfl_pytest.build) and check which copy Python imports (PYTHONPATH, "
                       "an in-place build, an installed package); its C++ lines are not in the spectrum");
  if (!python) return;
  for (const auto& source : report.coverage_sources)
    if (source.files == 0)
      warnings.push_back("--dlfl-cov " + source.source +
                         ": coverage.py measured none of its files: the tests never imported it from there (check the "
                         "package name or directory, and that Python imports that copy, not an installed one)");
}

// The files of the run: DIR/pytest-run.json and the runtime snapshots DIR/rt-*.map*
// (sorted) of the directory, then those given one by one. Throws dlfl::Error when DIR
// holds no run report.
struct PytestFiles {
  fs::path report, coverage_json;
  std::vector<fs::path> snapshots;
};

PytestFiles files_of(const PytestRun& source) {
  PytestFiles f;
  f.coverage_json = source.coverage_json;
  if (const fs::path& dir = source.directory; !dir.empty()) {
    f.report = dir / "pytest-run.json";
    if (!fs::is_regular_file(f.report))
      throw Error(dir.string(), 0,
                  "holds no pytest-run.json: run pytest with `-p dlfl_pytest --dlfl-out " + dir.string() + "` first");
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.starts_with("rt-") && name.find(".map") != std::string::npos) f.snapshots.push_back(entry.path());
    }
    std::sort(f.snapshots.begin(), f.snapshots.end());
  } else {
    f.report = source.report;
  }
  f.snapshots.insert(f.snapshots.end(), source.snapshots.begin(), source.snapshots.end());
  return f;
}

}  // namespace

CollectResult collect_pytest_run(const CollectRequest& request, const PytestRun& source) {
  const auto started = std::chrono::steady_clock::now();
  const PytestFiles o = files_of(source);
  CollectResult result;
  std::optional<io::PytestRunReport> report;
  if (!o.report.empty()) report = io::read_pytest_run_report(o.report);
  fs::path coverage_json = o.coverage_json;
  if (coverage_json.empty() && report && !report->coverage_json.empty())
    coverage_json = o.report.parent_path() / report->coverage_json;
  if (!source.python) coverage_json.clear();
  const bool cpp = source.cpp && !o.snapshots.empty();
  CollectRequest runtime;
  runtime.probe_map = request.probe_map;
  runtime.paths = request.paths;
  runtime.absolute_paths = request.absolute_paths;
  runtime.include_outside_tests = request.include_outside_tests;
  if (source.cpp) {
    if (report) native_warnings(*report, source.python, result.warnings);
    if (runtime.probe_map.empty()) runtime.probe_map = run_probe_map(report ? &*report : nullptr, o.report);
    if (cpp && runtime.probe_map.empty())
      throw Error(o.snapshots.front().string(), 0,
                  "found no probe map beside the instrumented libraries the run loaded, in " +
                      o.report.parent_path().string() +
                      " or where the tests ran: give --probe-map MAP, the dlfl-probes.map of the instrumented "
                      "extension's tree (or --leave-out c++)");
    if (!cpp && !runtime.probe_map.empty())
      result.warnings.push_back(
          "no instrumented code ran in the pytest run (no runtime snapshot beside " + o.report.string() +
          "), so " + runtime.probe_map.string() + " is not used" +
          (report && report->native.known && !report->native.runtime
               ? ": the plugin loaded no libdlfl_rt (--dlfl-rt-lib SO, $DLFL_RT_LIB or dlfl on PATH)"
               : ": check that the tests import the extension built from the instrumented tree "
                 "(python -m dlfl_pytest.build)"));
    result.probe_map = cpp ? runtime.probe_map : fs::path();
  }
  if (coverage_json.empty() && !cpp)
    throw Error((o.report.empty() ? std::string("the pytest run") : o.report.string()) +
                ": no coverage to join: no coverage.py report (--dlfl-cov PKG when running pytest, or "
                "--coverage-py FILE) and no runtime snapshot (--snapshot FILE, or an instrumented extension)");
  if (!report && !cpp)
    throw Error(coverage_json.string(), 0,
                "coverage.py contexts carry no test outcomes: give the dlfl_pytest run report (--pytest-report "
                "DIR/pytest-run.json, or --pytest-run DIR) or the runtime snapshots of the same run");

  // The tests, by name, in the report's order (else the snapshots').
  std::vector<JoinedTest> tests;
  std::unordered_map<std::string, std::size_t> index;
  auto add_test = [&](JoinedTest t) {
    index.emplace(t.test.name, tests.size());
    tests.push_back(std::move(t));
  };
  if (report)
    for (const auto& t : report->tests)
      add_test({outcome_of(t), t.runs == t.skipped, {}, source.extrinsic ? t.extrinsic : std::vector<std::string>{},
                std::to_string(t.failed) + "/" + std::to_string(t.runs - t.skipped)});

  SpectrumBuilder builder;
  if (cpp) {
    CollectResult native = collect_from_snapshots(runtime, RuntimeSnapshots{o.snapshots});
    const Spectrum& s = native.spectrum;
    result.warnings.insert(result.warnings.end(), native.warnings.begin(), native.warnings.end());
    result.stats.processes = native.stats.processes;
    std::vector<std::size_t> row(s.test_count());
    std::size_t unreported = 0;
    for (std::size_t t = 0; t < s.test_count(); ++t) {
      const TestCase& test = s.tests()[t];
      auto it = index.find(test.name);
      if (it == index.end()) {
        // Only in the snapshots: e.g. the pytest process died before writing its report.
        if (report) ++unreported;
        add_test({test, false, {}, {}, {}});
        it = index.find(test.name);
      } else if (test.status == TestStatus::crashed && tests[it->second].test.failed()) {
        tests[it->second].test.status = TestStatus::crashed;
        tests[it->second].test.message = test.message;
      }
      row[t] = it->second;
    }
    if (unreported)
      result.warnings.push_back(std::to_string(unreported) + " test(s) of the runtime snapshots are not in " +
                                o.report.string() + "; their outcome is the snapshots'");
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      const std::uint32_t id = builder.add_copy(s, e);
      for (const std::uint32_t t : s.coverage().tests_of(e)) tests[row[t]].elements.push_back(id);
    }
    result.stats.cpp_elements = s.element_count();
  }

  if (!coverage_json.empty()) {
    const io::CoveragePyData py = io::read_coverage_py_json(coverage_json);
    const PythonNamer namer{report ? report->root : fs::path(), request.paths.source_root, request.paths.excludes};
    std::map<std::string, std::vector<io::PythonFunction>> found;
    std::vector<long> test_of_context(py.contexts.size(), -1);
    std::size_t unknown = 0;
    for (std::size_t c = 0; c < py.contexts.size(); ++c) {
      const auto it = index.find(py.contexts[c]);
      if (it != index.end()) test_of_context[c] = static_cast<long>(it->second);
      else ++unknown;
    }
    if (unknown)
      result.warnings.push_back(std::to_string(unknown) + " coverage.py context(s) name no test of the run (" +
                                coverage_json.string() + "); their lines count for no test");
    for (const auto& file : py.files) {
      const auto name = namer.element_name(file.path);
      if (!name) continue;
      std::unordered_map<std::uint32_t, std::uint32_t> element_of_line;
      for (const std::uint32_t line : file.statements) {
        element_of_line[line] = builder.add_element(*name, line, line, function_name(file, line, report ? &*report : nullptr, namer, found),
                                                     {}, Language::python);
        ++result.stats.python_elements;
      }
      for (const auto& covered : file.covered) {
        auto it = element_of_line.find(covered.line);
        if (it == element_of_line.end()) {  // a context line coverage.py did not list as a statement
          it = element_of_line.emplace(covered.line, builder.add_element(*name, covered.line, covered.line,
                                                                         function_name(file, covered.line, report ? &*report : nullptr, namer, found),
                                                                         {}, Language::python)).first;
          ++result.stats.python_elements;
        }
        for (const std::uint32_t c : covered.contexts)
          if (test_of_context[c] >= 0) tests[static_cast<std::size_t>(test_of_context[c])].elements.push_back(it->second);
      }
    }
  }

  std::unordered_map<std::string, std::uint32_t> extrinsic;
  for (auto& t : tests)
    for (const auto& label : t.extrinsic) {
      auto [it, inserted] = extrinsic.try_emplace(label, 0);
      if (inserted) it->second = builder.add_extrinsic(label);
      t.elements.push_back(it->second);
    }
  result.stats.extrinsic_elements = extrinsic.size();

  for (auto& t : tests) {
    if (t.skipped) {
      ++result.stats.skipped;
      continue;
    }
    ++result.stats.tests;
    if (t.test.failed()) ++result.stats.failing;
    if (t.test.status == TestStatus::crashed) ++result.stats.crashed;
    if (t.test.status == TestStatus::flaky) {
      result.flaky.push_back(t.test.name + (t.runs.empty() ? "" : " " + t.runs));
    }
    builder.add_test(std::move(t.test), t.elements);
  }
  if (result.stats.tests == 0)
    throw Error((o.report.empty() ? o.snapshots.front().string() : o.report.string()) + ": holds no test that ran");
  result.spectrum = std::move(builder).finish();
  result.stats.elements = result.spectrum.element_count();
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace dlfl::collect
