// collect(): validates the request, picks the collector its source needs, and adds what
// every run dlfl starts shares: repeats merged into k/N failure weights and extrinsic
// elements.
#include "dlfl/collect/collector.h"

#include <functional>
#include <iostream>
#include <map>

#include "collectors.h"
#include "dlfl/collect/extrinsic_elements.h"
#include "dlfl/collect/process.h"
#include "dlfl/error.h"
#include "dlfl/spectrum_union.h"

namespace dlfl::collect {
namespace {

// The GoogleTest parameters of each test of `binary` (TypeParam=..., GetParam()=...).
std::map<std::string, std::vector<std::string>> gtest_params(const std::filesystem::path& binary) {
  ProcessSpec spec;
  spec.argv = {binary.string(), "--gtest_list_tests"};
  spec.env_unset = {"GTEST_FILTER", "DLFL_RT_FILE"};
  spec.stdout_limit = SIZE_MAX;
  const ProcessResult r = run_process(spec);
  if (r.end != ProcessEnd::exited || r.exit_code != 0)
    throw Error(binary.string(), 0, "--gtest_list_tests failed: " + describe_end(r, std::chrono::milliseconds(0)));
  return gtest_parameter_labels(r.out);
}

// The extrinsic elements of a run dlfl starts: the environment's values (the same for
// every test) and, for a gtest binary with gtest_params, each test's parameters.
void add_extrinsic(const CollectRequest& request, CollectResult& result) {
  const auto env = environment_labels(request.extrinsic_env);
  const auto* gtest = std::get_if<GtestBinary>(&request.source);
  const auto params = gtest && request.gtest_params ? gtest_params(gtest->binary)
                                                    : std::map<std::string, std::vector<std::string>>{};
  if (env.empty() && params.empty()) return;
  result.spectrum = add_extrinsic_elements(result.spectrum, [&](const TestCase& t) {
    std::vector<std::string> labels = env;
    if (const auto it = params.find(t.name); it != params.end())
      labels.insert(labels.end(), it->second.begin(), it->second.end());
    return labels;
  });
}

// The outcome counts of a merged spectrum.
void count_merged(CollectStats& s, const Spectrum& spectrum) {
  s.tests = spectrum.test_count();
  s.failing = s.crashed = s.timed_out = 0;
  for (const TestCase& t : spectrum.tests()) {
    s.failing += t.failed();
    s.crashed += t.status == TestStatus::crashed;
    s.timed_out += t.status == TestStatus::timed_out;
  }
}

// A run dlfl starts, `repeat` times unless `once` repeats the tests itself (runtime +
// gtest: --gtest_repeat in one process): the spectra merge (a test failing k of N times
// weighs k/N), then the extrinsic elements go in. The counts follow the merged spectrum;
// the stats' time and backend are the first run's.
CollectResult run_repeated(const CollectRequest& request, const std::function<CollectResult()>& once,
                           bool repeats_itself) {
  const unsigned repeat = request.repeat.value_or(1);
  CollectResult result = once();
  if (repeat > 1 && !repeats_itself) {
    std::vector<Spectrum> runs;
    runs.push_back(std::move(result.spectrum));
    for (unsigned i = 1; i < repeat; ++i) {
      CollectResult again = once();
      result.warnings.insert(result.warnings.end(), again.warnings.begin(), again.warnings.end());
      runs.push_back(std::move(again.spectrum));
    }
    SpectrumUnion merged = unite_spectra(runs, RunTimeRule::mean);
    result.spectrum = std::move(merged.spectrum);
    result.flaky = std::move(merged.flaky);
  }
  add_extrinsic(request, result);
  result.stats.elements = result.spectrum.element_count();
  if (repeat > 1) count_merged(result.stats, result.spectrum);
  return result;
}

// Tests dlfl runs: one process for a gtest binary's tests under runtime coverage, else
// one per test.
CollectResult run_tests(const CollectRequest& request, ProgressReporter& progress) {
  if (!runtime_coverage(request))
    return run_repeated(request, [&] { return collect_per_test(request, progress); }, false);
  CollectRequest resolved = request;
  resolved.probe_map = runtime_probe_map(request);
  if (request.probe_map.empty()) progress.note("probe map: " + resolved.probe_map.string());
  CollectResult result;
  if (const auto* gtest = std::get_if<GtestBinary>(&request.source)) {
    resolved.progress = &progress;
    result = run_repeated(resolved, [&] { return collect_with_runtime(resolved, *gtest); }, true);
  } else {
    result = run_repeated(resolved, [&] { return collect_per_test(resolved, progress); }, false);
  }
  result.probe_map = resolved.probe_map;
  return result;
}

}  // namespace

std::optional<PathFilterOptions> runtime_path_filter(const CollectRequest& request) {
  if (request.paths.source_root.empty() && request.paths.excludes.empty()) return std::nullopt;
  return request.paths;
}

CollectResult collect(const CollectRequest& request) {
  validate(request);
  if (const auto* pytest = std::get_if<PytestRun>(&request.source)) return collect_pytest_run(request, *pytest);
  if (const auto* snapshots = std::get_if<RuntimeSnapshots>(&request.source)) {
    CollectResult result = collect_from_snapshots(request, *snapshots);
    result.probe_map = request.probe_map;
    return result;
  }
  if (request.progress) return run_tests(request, *request.progress);
  const auto quiet = make_progress(ProgressStyle::none, std::cerr);
  return run_tests(request, *quiet);
}

}  // namespace dlfl::collect
