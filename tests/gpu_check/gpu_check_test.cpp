// scripts/gpu-check.sh without a GPU: the pack, the GPU side's nvcc build for sm_90, and the
// verdicts computed from snapshots written through the runtime's API as the GPU run would
// write them if the device probes record what examples/gpu_check's markers say.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "../support/have_program.h"
#include "../support/test_files.h"

namespace {

namespace fs = std::filesystem;
using dlfl::testing::have_program;
using dlfl::testing::slurp;
using dlfl::testing::TempDir;
using dlfl::testing::write_text;

const fs::path kScript = fs::path(DLFL_SOURCE_DIR) / "scripts/gpu-check.sh";
const fs::path kVerdict = fs::path(DLFL_SOURCE_DIR) / "scripts/gpu_check/verdict.py";

struct Shell {
  int exit_code = -1;
  std::string output;
};

Shell sh(const std::string& command) {
  static TempDir scratch("gpu-check-sh");
  const fs::path out = scratch / "out";
  const int status = std::system((command + " >" + out.string() + " 2>&1").c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out)};
}

std::string nvcc_path() {
  if (fs::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return have_program("nvcc") ? "nvcc" : "";
}

class GpuCheck : public ::testing::Test {
 protected:
  // One pack for all tests: instrumenting is the slow part.
  static void SetUpTestSuite() {
    tmp_ = new TempDir("gpu-check");
    pack_ = *tmp_ / "pack";
    packed_ = sh("DLFL=" DLFL_BINARY " " + kScript.string() + " pack " + pack_.string());
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  void SetUp() override { ASSERT_EQ(packed_.exit_code, 0) << packed_.output; }

  // The replay script of `scenario` (verdict.py replay), with `edit` applied to its text.
  static std::string replay_script(const std::string& scenario) {
    const Shell r = sh("python3 " + kVerdict.string() + " replay " + pack_.string() + " " + scenario);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output;
  }
  // Writes OUT/NAME.rt from `script` through the runtime.
  static void replay(const fs::path& out, const std::string& name, const std::string& script) {
    write_text(out / (name + ".script"), script);
    const Shell r = sh("DLFL_RT_FILE=" + (out / (name + ".rt")).string() + " " DLFL_GPU_CHECK_REPLAY " < " +
                       (out / (name + ".script")).string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  // The GPU run's other files, as run.sh writes them.
  static void write_run_files(const fs::path& out, bool instr_timed, bool runtime_said_lost) {
    std::string bench;
    for (int round = 0; round < 3; ++round)
      for (const char* k : {"clamp", "count_above", "window_sum", "normalize", "scatter"}) {
        bench += std::string("plain kernel ") + k + " " + std::to_string(10 + round) + ".0\n";
        if (instr_timed) bench += std::string("instr kernel ") + k + " " + std::to_string(15 + round) + ".0\n";
      }
    write_text(out / "bench.txt", bench);
    write_text(out / "summary.txt", "arch=sm_90\nprobe_count=" + probe_count() + "\ncuda_units=1\nstatus=ran\n");
    std::string log = "[ RUN      ] DeviceTrap.ClampThenScatterToNull\nerror: an illegal memory access was encountered\n";
    if (runtime_said_lost)
      log += "dlfl_rt: device coverage lost: cannot copy a CUDA unit's probe map back (cudaErrorIllegalAddress: an "
             "illegal memory access was encountered); ...\n";
    write_text(out / "trap.log", log);
  }
  static std::string probe_count() {
    const std::string text = slurp(pack_ / "instr/kernels.cu");
    const auto at = text.find("#define DLFL_RT_PROBE_COUNT ");
    return at == std::string::npos ? "0" : text.substr(at + 28, text.find_first_of(" \n", at + 28) - at - 28);
  }
  static Shell verdict(const fs::path& out) {
    return sh("DLFL=" DLFL_BINARY " " + kScript.string() + " verdict " + pack_.string() + " " + out.string());
  }

  static TempDir* tmp_;
  static fs::path pack_;
  static Shell packed_;
};

TempDir* GpuCheck::tmp_ = nullptr;
fs::path GpuCheck::pack_;
Shell GpuCheck::packed_;

TEST_F(GpuCheck, PackHoldsWhatTheGpuSideNeeds) {
  for (const char* f : {"run.sh", "instr/kernels.cu", "instr/kernels.h", "instr/dlfl-probes.map", "plain/kernels.cu",
                        "plain/gpu_check_test.cpp", "plain/bench.cu", "rt/include/dlfl_rt/probe.h",
                        "rt/include/dlfl_rt/cuda_probe.h", "rt/src/dlfl_rt.c", "rt/src/dlfl_rt_gtest_listener.cpp",
                        "gtest/src/gtest-all.cc", "gtest/src/gtest_main.cc", "gtest/include/gtest/gtest.h"})
    EXPECT_TRUE(fs::is_regular_file(pack_ / f)) << f;
  EXPECT_NE(fs::status(pack_ / "run.sh").permissions() & fs::perms::owner_exec, fs::perms::none);
  std::uintmax_t bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(pack_))
    if (e.is_regular_file()) bytes += e.file_size();
  EXPECT_LT(bytes, 64u << 20);
  // Device code got device probes, and the map says which sites run on the device.
  EXPECT_NE(slurp(pack_ / "instr/kernels.cu").find("DLFL_RT_PROBE("), std::string::npos);
  EXPECT_NE(slurp(pack_ / "instr/dlfl-probes.map").find("\td\n"), std::string::npos);
  EXPECT_NE(packed_.output.find("device sites"), std::string::npos) << packed_.output;
}

// The GPU side's whole build (runtime, GoogleTest, listener, instrumented and plain kernels,
// tests, benchmark) for the H100's sm_90; the tests then run and skip (no device here).
TEST_F(GpuCheck, GpuSideBuildsForSm90WithNvcc) {
  const std::string nvcc = nvcc_path();
  if (nvcc.empty()) GTEST_SKIP() << "nvcc not installed: the GPU side's build is not checked";
  const fs::path out = *tmp_ / "build-only";
  const Shell r = sh("NVCC=" + nvcc + " GPU_CHECK_ARCH=sm_90 " + (pack_ / "run.sh").string() + " " + out.string() +
                     " --build-only");
  ASSERT_EQ(r.exit_code, 0) << r.output << slurp(out / "run.log");
  EXPECT_NE(slurp(out / "summary.txt").find("status=built"), std::string::npos);
  const std::string log = slurp(out / "run.log");
  EXPECT_NE(log.find("no CUDA device"), std::string::npos) << log;  // each test skipped, saying why
  EXPECT_EQ(log.find("warning"), std::string::npos) << log;
  EXPECT_TRUE(fs::exists(out / "build-only.rt"));  // the runtime wrote its snapshot
}

TEST_F(GpuCheck, VerdictsPassOnTheExpectedSnapshots) {
  const fs::path out = *tmp_ / "expected";
  for (const char* scenario : {"correct", "fault", "trap"}) replay(out, scenario, replay_script(scenario));
  write_run_files(out, true, true);
  const Shell r = verdict(out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("verdict 1 PASS: device probes record per test"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("recorded; Normalize.ZeroNormLaunchesNothing launches normalize_kernel zero times: 0 of"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("verdict 2 PASS"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cannot rank it"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("failing: WindowSum.RadiusTwo, WindowSum.WholeRow"), std::string::npos) << r.output;
  // Medians 16 / 11 per kernel.
  EXPECT_NE(r.output.find("verdict 3 PASS: overhead of the device probes: instrumented/plain kernel time 1.45x"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("bytes of device memory (1 CUDA unit x a " + probe_count() + "-byte map)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("verdict 4 PASS"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("and the runtime said so"), std::string::npos) << r.output;
}

// A snapshot where the zero-launch test got a kernel's lines, a fault run whose failures
// are elsewhere, a benchmark without instrumented times and a trap that loses coverage
// silently: each verdict fails, naming why.
TEST_F(GpuCheck, WrongSnapshotsFailTheirVerdicts) {
  const fs::path out = *tmp_ / "wrong";
  std::string correct = replay_script("correct");
  const auto by_four = correct.find("begin Normalize.ByFour\n");
  const auto zero = correct.find("begin Normalize.ZeroNormLaunchesNothing\n");
  ASSERT_NE(by_four, std::string::npos);
  ASSERT_NE(zero, std::string::npos);
  const auto hits_begin = correct.find('\n', by_four) + 1;
  const std::string leaked = correct.substr(hits_begin, correct.find("end", hits_begin) - hits_begin);
  correct.insert(correct.find('\n', zero) + 1, leaked);
  replay(out, "correct", correct);
  std::string fault = replay_script("fault");
  for (const char* test : {"WindowSum.RadiusZeroCopies", "WindowSum.RadiusTwo", "WindowSum.WholeRow"}) {
    const auto at = fault.find("end ", fault.find(std::string("begin ") + test + "\n"));
    fault[at + 4] = fault[at + 4] == '0' ? '1' : '0';
  }
  replay(out, "fault", fault);
  replay(out, "trap", replay_script("trap"));
  write_run_files(out, false, false);
  const Shell r = verdict(out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("verdict 1 FAIL"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Normalize.ZeroNormLaunchesNothing +["), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("verdict 2 FAIL"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("failing: WindowSum.RadiusZeroCopies (expected: WindowSum.RadiusTwo, WindowSum.WholeRow)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("verdict 3 FAIL: overhead of the device probes: no timing for"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("verdict 4 FAIL"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("without a word from the runtime"), std::string::npos) << r.output;
}

}  // namespace
