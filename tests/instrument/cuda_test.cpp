// CUDA files: parsed from nvcc compile commands in clang's CUDA mode, device code gets
// device probes, and the rewritten files compile with nvcc (when it is installed).
#include <gtest/gtest.h>

#include "dlfl/instrument/instrumenter.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;

const std::string kNvcc = "/usr/local/cuda/bin/nvcc";
const fs::path kTensorlite = fs::path(DLFL_SOURCE_DIR) / "examples/tensorlite";

std::string nvcc_path() {
  if (fs::exists(kNvcc)) return kNvcc;
  return have_program("nvcc") ? "nvcc" : "";
}

// The architecture nvcc compiles for: the oldest it supports (CUDA 13 dropped sm_70).
std::string nvcc_arch(const std::string& nvcc) {
  const Shell list = sh(nvcc + " --list-gpu-arch");
  const auto at = list.output.find("compute_");
  return at == std::string::npos ? "sm_75" : "sm_" + list.output.substr(at + 8, list.output.find('\n', at) - at - 8);
}

std::string line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return "";
  const auto begin = text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

TEST(Cuda, DeviceCodeGetsDeviceProbesAndHostCodeHostProbes) {
  TempDir tmp;
  const fs::path src = tmp / "src";
  write_text(src / "kernels.cu", slurp(fs::path(DLFL_SOURCE_DIR) / "tests/instrument/cases/kernels.cu"));
  // What CMake writes for nvcc: options clang does not know must not get in the way.
  write_compile_commands(src, {"kernels.cu"}, "/usr/local/cuda/bin/nvcc",
                         "-forward-unknown-to-host-compiler --generate-code=arch=compute_75,code=[compute_75,sm_75] "
                         "-Xcompiler=-fPIC -std=c++17 -x cu");
  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.out_dir = tmp / "out";
  const auto result = instrument::instrument(o);
  const std::string text = slurp(tmp / "out/kernels.cu");

  EXPECT_NE(line_of(text, "if (i < 0)").find("DLFL_RT_PROBE("), std::string::npos) << text;  // __host__ __device__
  EXPECT_NE(line_of(text, "return x + x;").find("DLFL_RT_PROBE("), std::string::npos) << text;  // device template
  EXPECT_NE(line_of(text, "if (i >= n)").find("DLFL_RT_PROBE("), std::string::npos) << text;  // kernel
  EXPECT_NE(line_of(text, "return v * factor;").find("DLFL_RT_PROBE("), std::string::npos) << text;  // lambda
  const std::string launch = line_of(text, "fixture::scale<<<");
  EXPECT_NE(launch.find("__dlfl_map["), std::string::npos) << text;  // host launcher
  EXPECT_EQ(launch.find("DLFL_RT_PROBE("), std::string::npos) << text;

  const auto map = instrument::read_probe_map(result.probe_map);
  std::set<instrument::ProbeSpace> spaces;
  for (const auto& s : map.sites) spaces.insert(s.space);
  EXPECT_EQ(spaces.size(), 3u);  // host, device and host-device probes

  const std::string nvcc = nvcc_path();
  if (nvcc.empty()) GTEST_SKIP() << "nvcc not installed: compile check skipped";
  const Shell build = sh(nvcc + " -std=c++17 -arch=" + nvcc_arch(nvcc) + " -I" DLFL_INCLUDE_DIR " -Xcompiler=-Wall,-Wextra -c " +
                         (tmp / "out/kernels.cu").string() + " -o " + (tmp / "kernels.o").string());
  EXPECT_EQ(build.exit_code, 0) << build.output;
  EXPECT_EQ(build.output.find("warning"), std::string::npos) << build.output;
}

TEST(Cuda, InstrumentedTensorliteKernelsCompileWithNvcc) {
  const std::vector<std::string> kernels = {"cuda/elementwise.cu", "cuda/matmul.cu", "cuda/softmax.cu"};
  TempDir tmp;
  // The database lists the originals; the output mirrors the tensorlite tree.
  std::string json = "[\n";
  for (std::size_t i = 0; i < kernels.size(); ++i)
    json += "{\"directory\": \"" + tmp.path().string() + "\", \"command\": \"" + kNvcc + " -I" +
            (kTensorlite / "include").string() + " -std=c++17 -x cu -c " + (kTensorlite / kernels[i]).string() +
            "\", \"file\": \"" + (kTensorlite / kernels[i]).string() + "\"}" + (i + 1 < kernels.size() ? ",\n" : "\n");
  write_text(tmp / "compile_commands.json", json + "]\n");
  instrument::InstrumentOptions o;
  o.build_dir = tmp.path();
  o.root = kTensorlite;
  o.out_dir = tmp / "out";
  o.copy_tree = false;
  const auto result = instrument::instrument(o);
  ASSERT_GE(result.rewritten.size(), 3u);
  for (const auto& k : kernels)
    EXPECT_NE(slurp(tmp / "out" / k).find("DLFL_RT_PROBE("), std::string::npos) << k;

  const std::string nvcc = nvcc_path();
  if (nvcc.empty()) GTEST_SKIP() << "nvcc not installed: compile check skipped";
  // Rewritten headers (if any) shadow the originals: the output include dir comes first.
  std::string files;
  for (const auto& k : kernels) files += " " + (tmp / "out" / k).string();
  const Shell build = sh("cd " + tmp.path().string() + " && " + nvcc + " -std=c++17 -arch=" + nvcc_arch(nvcc) +
                         " -I" DLFL_INCLUDE_DIR " -I" + (tmp / "out/include").string() + " -I" +
                         (kTensorlite / "include").string() + " -Xcompiler=-Wall,-Wextra -c" + files);
  EXPECT_EQ(build.exit_code, 0) << build.output;
  EXPECT_EQ(build.output.find("warning"), std::string::npos) << build.output;
}

}  // namespace
