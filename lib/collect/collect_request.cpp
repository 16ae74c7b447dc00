// validate() and the probe map lookup of a CollectRequest.
#include "dlfl/collect/collect_request.h"

#include <initializer_list>
#include <utility>

#include "dlfl/collect/probe_map_lookup.h"
#include "dlfl/error.h"
#include "dlfl/probe_map/probe_map.h"

namespace dlfl::collect {
namespace {

// (option as `dlfl collect` spells it, whether the request sets it)
using Given = std::initializer_list<std::pair<const char*, bool>>;

void refuse_any(Given options, const std::string& why) {
  for (const auto& [option, given] : options)
    if (given) throw Error(std::string(option) + why);
}

// gcov/llvm settings under runtime coverage, in the order the CLI lists them.
void check_runtime_settings(const CollectRequest& r) {
  refuse_any({{"--object", !r.objects.empty()},
              {"--gcov", !r.tools.gcov.empty()},
              {"--llvm-profdata", !r.tools.llvm_profdata.empty()},
              {"--llvm-cov", !r.tools.llvm_cov.empty()},
              {"--include-system", r.paths.include_system},
              {"--crash-handler", r.crash_handler.has_value()}},
             " is for gcov/llvm coverage; it does not go with --runtime");
}

void check_snapshots(const CollectRequest& r, const RuntimeSnapshots& s) {
  // Nothing runs: the settings that steer a run have nothing to steer.
  refuse_any({{"--filter", !r.filter.empty()},
              {"--timeout", r.timeout.has_value()},
              {"--jobs", r.jobs.has_value()},
              {"--work-dir", !r.work_dir.empty()},
              {"--keep-work", r.keep_work},
              {"--repeat", r.repeat.has_value()}},
             " steers a run of the tests; with --snapshot nothing runs (leave it out)");
  if (r.probe_map.empty())
    throw Error("--snapshot needs --probe-map MAP: the dlfl-probes.map `dlfl instrument` wrote for the code that ran");
  if (s.files.empty()) throw Error("no runtime snapshot file given");
}

void check_pytest_run(const CollectRequest& r, const PytestRun& p) {
  refuse_any({{"--filter", !r.filter.empty()},
              {"--timeout", r.timeout.has_value()},
              {"--jobs", r.jobs.has_value()},
              {"--work-dir", !r.work_dir.empty()},
              {"--keep-work", r.keep_work},
              {"--object", !r.objects.empty()},
              {"--gcov", !r.tools.gcov.empty()},
              {"--llvm-profdata", !r.tools.llvm_profdata.empty()},
              {"--llvm-cov", !r.tools.llvm_cov.empty()},
              {"--include-system", r.paths.include_system},
              {"--repeat", r.repeat.has_value()},
              {"--extrinsic-env", !r.extrinsic_env.empty()},
              {"--gtest-params", r.gtest_params}},
             " steers a run dlfl starts; a pytest run already happened (the plugin takes --dlfl-repeat and "
             "--dlfl-extrinsic-env)");
  if (!p.directory.empty() && !p.report.empty())
    throw Error("--pytest-run DIR already names DIR/pytest-run.json: leave --pytest-report out");
  if (p.directory.empty() && p.report.empty() && !p.snapshots.empty() && r.probe_map.empty())
    throw Error("the run has runtime snapshots (" + p.snapshots.front().string() +
                "): give --probe-map MAP, the dlfl-probes.map of the instrumented extension's tree (or --leave-out c++)");
}

}  // namespace

bool runtime_coverage(const CollectRequest& request) noexcept {
  return std::holds_alternative<RuntimeSnapshots>(request.source) ||
         (request.coverage == CoverageKind::runtime && !std::holds_alternative<PytestRun>(request.source));
}

void validate(const CollectRequest& r) {
  if (const auto* pytest = std::get_if<PytestRun>(&r.source)) return check_pytest_run(r, *pytest);
  const bool runtime = runtime_coverage(r);
  if (runtime) check_runtime_settings(r);
  if (const auto* snapshots = std::get_if<RuntimeSnapshots>(&r.source)) return check_snapshots(r, *snapshots);
  if (!runtime && !r.probe_map.empty()) throw Error("--probe-map goes with --runtime");
  if (runtime && std::holds_alternative<CommandList>(r.source) && r.probe_map.empty())
    throw Error("--runtime --tests needs --probe-map MAP: the dlfl-probes.map of the `dlfl instrument` tree the "
                "command's programs were built from");
  if (const auto* gtest = std::get_if<GtestBinary>(&r.source)) {
    // The runtime brackets the tests of one gtest process, which runs them one after another.
    if (runtime && r.jobs.value_or(0) > 1)
      throw Error("--runtime --gtest runs the tests one after another in one process; -j " + std::to_string(*r.jobs) +
                  " cannot be honoured (leave -j out, or run one process per test with --ctest or --tests/--cmd)");
    if (!runtime && (!gtest->args.empty() || !gtest->env.empty() || !gtest->cwd.empty()))
      throw Error("the arguments, environment and working directory of a gtest binary's runs go with --runtime "
                  "(each test of a gcov/llvm collection runs as its listing says)");
  }
  if (r.repeat && *r.repeat == 0) throw Error("--repeat must be at least 1");
}

std::filesystem::path runtime_probe_map(const CollectRequest& request) {
  if (!request.probe_map.empty()) return request.probe_map;
  const std::string name = instrument::kProbeMapFileName;
  const std::string how = "pass the one `dlfl instrument --out DIR` wrote with --probe-map DIR/" + name;
  if (const auto* gtest = std::get_if<GtestBinary>(&request.source)) {
    auto found = find_probe_map(gtest->binary);
    if (found.empty())
      throw Error(gtest->binary.string() + ": found no " + name +
                  " beside the binary, in a directory above it or in the source directory of its CMake build: " + how);
    return found;
  }
  if (const auto* ctest = std::get_if<CtestDirectory>(&request.source)) {
    auto found = find_probe_map(ctest->dir / "CMakeCache.txt");
    if (found.empty())
      throw Error(ctest->dir.string() + ": found no " + name +
                  " in the build directory, a directory above it or the source directory of its CMake cache: " + how);
    return found;
  }
  throw Error("runtime coverage needs the probe map of the instrumented tree (--probe-map)");
}

}  // namespace dlfl::collect
