// collect() of a pytest run: a dlfl_pytest run report + coverage.py contexts -> one spectrum with
// Python lines (and their functions), extrinsic elements and flaky weights. The C++ side
// (runtime snapshots) is exercised end to end under a real pytest by
// tests/python/plugin_check.py.
#include "dlfl/collect/collector.h"

#include <gtest/gtest.h>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using testing::TempDir;

// Writes a run: tests a (passes), b[float16] (fails 2 of 4 runs), c[float32] (fails),
// s (skipped every run); pkg/ops.py with a function table for ops.py only.
struct PytestRun {
  TempDir dir;
  explicit PytestRun(bool with_table = true, const std::string& more = "") {
    std::filesystem::create_directories(dir / "src" / "pkg");
    testing::write_text(dir / "src" / "pkg" / "ops.py",
                        "import os\n\ndef scale(x):\n    return x * 2\n\nclass Op:\n    def run(self, x):\n"
                        "        if x:\n            return scale(x)\n        return 0\n");
    testing::write_text(dir / "out" / "coverage.json", R"({"meta": {"show_contexts": true}, "files": {
      "pkg/ops.py": {"executed_lines": [1, 3, 4, 6, 7, 8, 9], "missing_lines": [10],
        "contexts": {"1": [""], "3": [""], "4": ["t.py::b[float16]", "t.py::c[float32]"],
                     "8": ["t.py::a", "t.py::b[float16]", "t.py::c[float32]"], "9": ["t.py::b[float16]", "t.py::c[float32]"],
                     "7": [""], "6": [""]}}}})");
    std::string report = R"({"format": "dlfl-pytest-run", "version": 1, "root": ")" + (dir / "src").string() +
                         R"(", "repeat": 4, "coverage_json": "coverage.json", "tests": [
      {"name": "t.py::a", "runs": ["passed", "passed", "passed", "passed"], "extrinsic": ["MODE=fast"]},
      {"name": "t.py::b[float16]", "runs": ["passed", "failed", "passed", "failed"], "extrinsic": ["dtype=float16", "MODE=fast"]},
      {"name": "t.py::c[float32]", "runs": ["failed", "failed", "failed", "failed"], "extrinsic": ["dtype=float32", "MODE=fast"]},
      {"name": "t.py::s", "runs": ["skipped", "skipped", "skipped", "skipped"], "extrinsic": []}])";
    if (with_table) report += R"(, "functions": {"pkg/ops.py": [[3, 4, "scale"], [7, 10, "Op.run"]]})";
    testing::write_text(dir / "out" / "pytest-run.json", report + more + "}");
  }
};

// The run dlfl_pytest left in `dir` (--dlfl-out DIR).
CollectRequest run_in(const std::filesystem::path& dir) {
  CollectRequest request;
  request.source = collect::PytestRun{.directory = dir};
  return request;
}

collect::PytestRun& pytest(CollectRequest& request) { return std::get<collect::PytestRun>(request.source); }

long element_of(const Spectrum& s, std::string_view name) {
  for (std::size_t e = 0; e < s.element_count(); ++e)
    if (s.element_name(e) == name) return static_cast<long>(e);
  return -1;
}

TEST(PytestRunCollector, JoinsOutcomesPythonLinesAndExtrinsicElements) {
  PytestRun run;
  const CollectResult r = collect(run_in(run.dir / "out"));
  const Spectrum& s = r.spectrum;
  ASSERT_EQ(s.test_count(), 3u);
  EXPECT_EQ(r.stats.skipped, 1u);
  EXPECT_EQ(r.stats.failing, 2u);
  EXPECT_EQ(r.flaky.size(), 1u);
  EXPECT_EQ(r.flaky, (std::vector<std::string>{"t.py::b[float16] 2/4"}));
  EXPECT_DOUBLE_EQ(s.tests()[1].failure_weight, 0.5);
  EXPECT_EQ(s.tests()[1].status, TestStatus::flaky);
  EXPECT_DOUBLE_EQ(s.tests()[2].failure_weight, 1.0);
  EXPECT_EQ(r.stats.python_elements, 8u);
  EXPECT_EQ(r.stats.extrinsic_elements, 3u);
  EXPECT_EQ(testing::covered_lines(s, "t.py::a", "pkg/ops.py"), (std::set<std::uint32_t>{8}));
  EXPECT_EQ(testing::covered_lines(s, "t.py::b[float16]", "pkg/ops.py"), (std::set<std::uint32_t>{4, 8, 9}));
  const auto lines = testing::element_lines(s, "pkg/ops.py");
  EXPECT_EQ(lines.at(4), "scale");
  EXPECT_EQ(lines.at(9), "Op.run");
  EXPECT_EQ(lines.at(1), "");
  const long fp16 = element_of(s, "dtype=float16"), mode = element_of(s, "MODE=fast");
  ASSERT_GE(fp16, 0);
  ASSERT_GE(mode, 0);
  EXPECT_EQ(s.element(static_cast<std::size_t>(fp16)).kind, ElementKind::extrinsic);
  EXPECT_TRUE(s.coverage().covers(1, static_cast<std::uint32_t>(fp16)));
  EXPECT_FALSE(s.coverage().covers(2, static_cast<std::uint32_t>(fp16)));
  for (std::size_t t = 0; t < 3; ++t) EXPECT_TRUE(s.coverage().covers(t, static_cast<std::uint32_t>(mode)));
}

TEST(PytestRunCollector, FunctionsComeFromTheSourceWithoutATable) {
  PytestRun run(/*with_table=*/false);
  const CollectResult r = collect(run_in(run.dir / "out"));
  const auto lines = testing::element_lines(r.spectrum, "pkg/ops.py");
  EXPECT_EQ(lines.at(4), "scale");
  EXPECT_EQ(lines.at(10), "Op.run");
}

TEST(PytestRunCollector, LeavingOutAndRenamingPythonFiles) {
  PytestRun run;
  CollectRequest o = run_in(run.dir / "out");
  pytest(o).extrinsic = false;
  o.paths.source_root = run.dir.path();
  CollectResult r = collect(o);
  EXPECT_EQ(r.stats.extrinsic_elements, 0u);
  EXPECT_EQ(testing::element_lines(r.spectrum, "src/pkg/ops.py").size(), 8u);
  o.paths.excludes = {"*/ops.py"};
  r = collect(o);
  EXPECT_EQ(r.spectrum.element_count(), 0u);
}

TEST(PytestRunCollector, CoverageWithoutOutcomesOrNoCoverageIsAnError) {
  PytestRun run;
  CollectRequest o;
  o.source = collect::PytestRun{.coverage_json = run.dir / "out" / "coverage.json"};
  try {
    collect(o);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(pytest(o).coverage_json.string() + ": coverage.py contexts carry no test outcomes", 0), 0u)
        << e.what();
  }
  o = run_in(run.dir / "out");
  pytest(o).python = false;
  EXPECT_THROW(collect(o), Error);
  EXPECT_THROW(collect(run_in(run.dir / "src")), Error);
}

bool has_warning(const CollectResult& r, std::string_view text) {
  for (const auto& w : r.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

// Silent gaps are warnings that say what to check: a stale plain extension module loaded,
// a probe map of an instrumented build none of whose code ran, a --dlfl-cov source never
// imported.
TEST(PytestRunCollector, WarnsAboutAStaleBuildAndASourceNeverImported) {
  TempDir other;
  const std::string stale = (other / "src/pkg/_C.so").string();
  PytestRun run(true, R"(, "cov_sources": [{"source": "pkg", "files": 1}, {"source": "pkgx", "files": 0}],
    "native": {"runtime": true, "images": [], "uninstrumented_extensions": [")" + stale + R"("]})");
  testing::write_text(run.dir / "src" / "dlfl-probes.map", "dlfl-probe-map\t1\n");  // an in-place build's map
  const CollectResult r = collect(run_in(run.dir / "out"));
  EXPECT_TRUE(has_warning(r, "the tests loaded " + stale + ", which has no dlfl probes")) << r.warnings.size();
  EXPECT_TRUE(has_warning(r, "--dlfl-cov pkgx: coverage.py measured none of its files"));
  EXPECT_FALSE(has_warning(r, "--dlfl-cov pkg:"));
  EXPECT_TRUE(has_warning(r, "no instrumented code ran in the pytest run"));
  EXPECT_TRUE(has_warning(r, (run.dir / "src" / "dlfl-probes.map").string() + " is not used"));
  EXPECT_TRUE(r.probe_map.empty());

  // Leaving the C++ side out says nothing about it.
  CollectRequest o = run_in(run.dir / "out");
  pytest(o).cpp = false;
  const CollectResult python_only = collect(o);
  EXPECT_FALSE(has_warning(python_only, "no dlfl probes"));
  EXPECT_FALSE(has_warning(python_only, "no instrumented code ran"));
}

TEST(PytestRunCollector, ARunWithoutTheRuntimeSaysSo) {
  PytestRun run(true, R"(, "native": {"runtime": false, "images": [], "uninstrumented_extensions": []})");
  testing::write_text(run.dir / "out" / "dlfl-probes.map", "dlfl-probe-map\t1\n");
  const CollectResult r = collect(run_in(run.dir / "out"));
  EXPECT_TRUE(has_warning(r, "the plugin loaded no libdlfl_rt")) << (r.warnings.empty() ? "" : r.warnings.front());
}

}  // namespace
}  // namespace dlfl::collect
