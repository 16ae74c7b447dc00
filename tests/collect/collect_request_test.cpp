// validate(): each combination of a CollectRequest that makes no sense is refused with
// its own one-line error; the sensible ones pass.
#include "dlfl/collect/collect_request.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using namespace std::chrono_literals;

CollectRequest gtest_request(CoverageKind coverage = CoverageKind::automatic) {
  CollectRequest r;
  r.source = GtestBinary{.binary = "/bin/tests"};
  r.coverage = coverage;
  return r;
}

CollectRequest snapshot_request() {
  CollectRequest r;
  r.source = RuntimeSnapshots{{"run.map"}};
  r.probe_map = "dlfl-probes.map";
  return r;
}

CollectRequest pytest_request() {
  CollectRequest r;
  r.source = PytestRun{.directory = "out"};
  return r;
}

// The message validate() throws for `r`, or "" when it accepts it.
std::string refusal(const CollectRequest& r) {
  try {
    validate(r);
    return "";
  } catch (const Error& e) {
    return e.what();
  }
}

void expect_refused(CollectRequest r, const std::function<void(CollectRequest&)>& change, const std::string& message) {
  change(r);
  EXPECT_EQ(refusal(r), message);
}

TEST(CollectRequest, SensibleRequestsPass) {
  EXPECT_EQ(refusal(gtest_request()), "");
  EXPECT_EQ(refusal(gtest_request(CoverageKind::runtime)), "");
  EXPECT_EQ(refusal(snapshot_request()), "");
  EXPECT_EQ(refusal(pytest_request()), "");
  CollectRequest commands;
  commands.source = CommandList{.test_list = "names.txt", .command = "./prog {}", .reference_command = "./ref {}"};
  commands.coverage = CoverageKind::gcov;
  commands.jobs = 8;
  commands.timeout = 10s;
  commands.repeat = 3;
  commands.objects = {"prog"};
  commands.crash_handler = false;
  EXPECT_EQ(refusal(commands), "");
  CollectRequest runtime_gtest = gtest_request(CoverageKind::runtime);
  runtime_gtest.jobs = 1;  // one process: one job is what it does anyway
  std::get<GtestBinary>(runtime_gtest.source).env = {"A=1"};
  EXPECT_EQ(refusal(runtime_gtest), "");
}

TEST(CollectRequest, GcovAndLlvmSettingsDoNotGoWithTheRuntime) {
  const auto runtime = gtest_request(CoverageKind::runtime);
  const std::string tail = " is for gcov/llvm coverage; it does not go with --runtime";
  expect_refused(runtime, [](auto& r) { r.objects = {"lib.so"}; }, "--object" + tail);
  expect_refused(runtime, [](auto& r) { r.tools.gcov = "gcov-12"; }, "--gcov" + tail);
  expect_refused(runtime, [](auto& r) { r.tools.llvm_profdata = "llvm-profdata"; }, "--llvm-profdata" + tail);
  expect_refused(runtime, [](auto& r) { r.tools.llvm_cov = "llvm-cov"; }, "--llvm-cov" + tail);
  expect_refused(runtime, [](auto& r) { r.paths.include_system = true; }, "--include-system" + tail);
  expect_refused(runtime, [](auto& r) { r.crash_handler = true; }, "--crash-handler" + tail);
  // Snapshots are runtime coverage whatever `coverage` says.
  expect_refused(snapshot_request(), [](auto& r) { r.objects = {"lib.so"}; }, "--object" + tail);
}

TEST(CollectRequest, SnapshotsRefuseWhatSteersARun) {
  const std::string tail = " steers a run of the tests; with --snapshot nothing runs (leave it out)";
  const auto s = snapshot_request();
  expect_refused(s, [](auto& r) { r.filter = "A.*"; }, "--filter" + tail);
  expect_refused(s, [](auto& r) { r.timeout = 3s; }, "--timeout" + tail);
  expect_refused(s, [](auto& r) { r.jobs = 0; }, "--jobs" + tail);  // given, even as the default
  expect_refused(s, [](auto& r) { r.work_dir = "/tmp"; }, "--work-dir" + tail);
  expect_refused(s, [](auto& r) { r.keep_work = true; }, "--keep-work" + tail);
  expect_refused(s, [](auto& r) { r.repeat = 2; }, "--repeat" + tail);
  expect_refused(s, [](auto& r) { r.probe_map.clear(); },
                 "--snapshot needs --probe-map MAP: the dlfl-probes.map `dlfl instrument` wrote for the code that ran");
  expect_refused(s, [](auto& r) { r.source = RuntimeSnapshots{}; }, "no runtime snapshot file given");
}

TEST(CollectRequest, RuntimeNeedsAProbeMapForCommandsAndOneJobForAGtestBinary) {
  CollectRequest commands;
  commands.source = CommandList{.test_list = "names.txt", .command = "./prog {}"};
  commands.coverage = CoverageKind::runtime;
  EXPECT_EQ(refusal(commands),
            "--runtime --tests needs --probe-map MAP: the dlfl-probes.map of the `dlfl instrument` tree the command's "
            "programs were built from");
  commands.probe_map = "dlfl-probes.map";
  EXPECT_EQ(refusal(commands), "");

  expect_refused(gtest_request(CoverageKind::runtime), [](auto& r) { r.jobs = 2; },
                 "--runtime --gtest runs the tests one after another in one process; -j 2 cannot be honoured (leave -j "
                 "out, or run one process per test with --ctest or --tests/--cmd)");
}

TEST(CollectRequest, RunSettingsOfTheRuntimeAndAProbeMapNeedTheRuntime) {
  expect_refused(gtest_request(), [](auto& r) { r.probe_map = "dlfl-probes.map"; }, "--probe-map goes with --runtime");
  expect_refused(gtest_request(), [](auto& r) { std::get<GtestBinary>(r.source).cwd = "/tmp"; },
                 "the arguments, environment and working directory of a gtest binary's runs go with --runtime (each "
                 "test of a gcov/llvm collection runs as its listing says)");
  expect_refused(gtest_request(), [](auto& r) { r.repeat = 0; }, "--repeat must be at least 1");
}

TEST(CollectRequest, APytestRunAlreadyHappened) {
  const std::string tail =
      " steers a run dlfl starts; a pytest run already happened (the plugin takes --dlfl-repeat and "
      "--dlfl-extrinsic-env)";
  const auto p = pytest_request();
  expect_refused(p, [](auto& r) { r.filter = "t.py::*"; }, "--filter" + tail);
  expect_refused(p, [](auto& r) { r.timeout = 1s; }, "--timeout" + tail);
  expect_refused(p, [](auto& r) { r.jobs = 4; }, "--jobs" + tail);
  expect_refused(p, [](auto& r) { r.work_dir = "/tmp"; }, "--work-dir" + tail);
  expect_refused(p, [](auto& r) { r.keep_work = true; }, "--keep-work" + tail);
  expect_refused(p, [](auto& r) { r.objects = {"x"}; }, "--object" + tail);
  expect_refused(p, [](auto& r) { r.tools.gcov = "gcov"; }, "--gcov" + tail);
  expect_refused(p, [](auto& r) { r.tools.llvm_profdata = "p"; }, "--llvm-profdata" + tail);
  expect_refused(p, [](auto& r) { r.tools.llvm_cov = "c"; }, "--llvm-cov" + tail);
  expect_refused(p, [](auto& r) { r.paths.include_system = true; }, "--include-system" + tail);
  expect_refused(p, [](auto& r) { r.repeat = 2; }, "--repeat" + tail);
  expect_refused(p, [](auto& r) { r.extrinsic_env = {"MODE"}; }, "--extrinsic-env" + tail);
  expect_refused(p, [](auto& r) { r.gtest_params = true; }, "--gtest-params" + tail);
  expect_refused(p, [](auto& r) { std::get<PytestRun>(r.source).report = "out/pytest-run.json"; },
                 "--pytest-run DIR already names DIR/pytest-run.json: leave --pytest-report out");
  CollectRequest snapshots_only;
  snapshots_only.source = PytestRun{.snapshots = {"rt-1.map"}};
  EXPECT_EQ(refusal(snapshots_only),
            "the run has runtime snapshots (rt-1.map): give --probe-map MAP, the dlfl-probes.map of the instrumented "
            "extension's tree (or --leave-out c++)");
  snapshots_only.probe_map = "dlfl-probes.map";
  EXPECT_EQ(refusal(snapshots_only), "");
}

TEST(CollectRequest, RuntimeProbeMapIsTheGivenOneOrAnErrorNamingWhereItLooked) {
  CollectRequest r = gtest_request(CoverageKind::runtime);
  r.probe_map = "given.map";
  EXPECT_EQ(runtime_probe_map(r), "given.map");
  r.probe_map.clear();
  r.source = GtestBinary{.binary = "/nonexistent-dir/tests"};
  try {
    (void)runtime_probe_map(r);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent-dir/tests: found no dlfl-probes.map beside the binary", 0), 0u)
        << e.what();
  }
  r.source = CommandList{.test_list = "names.txt", .command = "./prog {}"};
  EXPECT_THROW((void)runtime_probe_map(r), Error);
}

}  // namespace
}  // namespace dlfl::collect
