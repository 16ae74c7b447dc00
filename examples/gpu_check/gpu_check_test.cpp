// The GPU check's tests: plain GoogleTest over kernels.h, each result compared with a CPU
// reference written here (so the seeded GPU-only fault is not in the reference). Each
// test's inputs decide which device lines it reaches (the markers in kernels.cu).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "kernels.h"

namespace {

// A device buffer of n floats holding `values`, plus `padding` more set to `pad` (rows of a
// padded matrix: what a kernel reading past the row end would see).
class DeviceFloats {
 public:
  explicit DeviceFloats(const std::vector<float>& values, int padding = 0, float pad = 0.0f) {
    std::vector<float> all = values;
    all.insert(all.end(), static_cast<std::size_t>(padding), pad);
    size_ = values.size();
    if (cudaMalloc(&data_, all.size() * sizeof(float)) == cudaSuccess)
      cudaMemcpy(data_, all.data(), all.size() * sizeof(float), cudaMemcpyHostToDevice);
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  ~DeviceFloats() { cudaFree(data_); }
  float* get() const { return data_; }
  std::vector<float> read() const {
    std::vector<float> out(size_);
    cudaMemcpy(out.data(), data_, size_ * sizeof(float), cudaMemcpyDeviceToHost);
    return out;
  }

 private:
  float* data_ = nullptr;
  std::size_t size_ = 0;
};

std::vector<float> ramp(int n, float from, float step) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = from + step * static_cast<float>(i);
  return v;
}

class Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no CUDA device";
  }
  static void finish(int launch) {
    ASSERT_EQ(launch, 0) << cudaGetErrorString(static_cast<cudaError_t>(launch));
    const cudaError_t done = cudaDeviceSynchronize();
    ASSERT_EQ(done, cudaSuccess) << cudaGetErrorString(done);
  }
};

std::vector<float> clamp_reference(const std::vector<float>& in, float lo, float hi) {
  std::vector<float> out;
  for (const float v : in) out.push_back(v < lo ? lo : (v > hi ? hi : v));
  return out;
}

std::vector<float> window_reference(const std::vector<float>& in, int radius) {
  const int n = static_cast<int>(in.size());
  std::vector<float> out(in.size(), 0.0f);
  for (int i = 0; i < n; ++i)
    for (int j = i - radius; j <= i + radius; ++j)
      if (j >= 0 && j < n) out[static_cast<std::size_t>(i)] += in[static_cast<std::size_t>(j)];
  return out;
}

using Clamp = Gpu;
using CountAbove = Gpu;
using WindowSum = Gpu;
using Normalize = Gpu;
using Scatter = Gpu;
using DeviceTrap = Gpu;

// 256 = two full blocks, every value inside [lo, hi]: no thread clamps, none is idle.
TEST_F(Clamp, InRange) {
  const auto in = ramp(256, 0.0f, 0.5f);
  DeviceFloats d_in(in), d_out(std::vector<float>(in.size()));
  finish(gpu_check::clamp(d_in.get(), d_out.get(), 256, -1.0f, 200.0f));
  EXPECT_EQ(d_out.read(), clamp_reference(in, -1.0f, 200.0f));
}

// One thread of 1000 sees a value below lo; the last block's 24 spare threads return early.
TEST_F(Clamp, OneBelowInPartialBlock) {
  auto in = ramp(1000, 0.0f, 0.01f);
  in[37] = -5.0f;
  DeviceFloats d_in(in), d_out(std::vector<float>(in.size()));
  finish(gpu_check::clamp(d_in.get(), d_out.get(), 1000, -1.0f, 200.0f));
  EXPECT_EQ(d_out.read(), clamp_reference(in, -1.0f, 200.0f));
}

TEST_F(Clamp, AboveRange) {
  const auto in = ramp(128, 100.0f, 1.0f);
  DeviceFloats d_in(in), d_out(std::vector<float>(in.size()));
  finish(gpu_check::clamp(d_in.get(), d_out.get(), 128, -1.0f, 150.0f));
  EXPECT_EQ(d_out.read(), clamp_reference(in, -1.0f, 150.0f));
}

int count_on_device(const std::vector<float>& in, float threshold) {
  DeviceFloats d_in(in);
  int* d_count = nullptr;
  int count = -1;
  if (cudaMalloc(&d_count, sizeof(int)) != cudaSuccess) return -1;
  cudaMemset(d_count, 0, sizeof(int));
  const int launch = gpu_check::count_above(d_in.get(), static_cast<int>(in.size()), threshold, d_count);
  if (launch == 0 && cudaDeviceSynchronize() == cudaSuccess) cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_count);
  return count;
}

TEST_F(CountAbove, SomeAbove) { EXPECT_EQ(count_on_device(ramp(300, 0.0f, 1.0f), 249.5f), 50); }

TEST_F(CountAbove, NoneAbove) { EXPECT_EQ(count_on_device(ramp(300, 0.0f, 1.0f), 1000.0f), 0); }

// The row is padded with 1000s: a window reaching past the row's end shows them.
std::vector<float> window_on_device(const std::vector<float>& in, int radius) {
  DeviceFloats d_in(in, 4, 1000.0f), d_out(std::vector<float>(in.size()));
  const int launch = gpu_check::window_sum(d_in.get(), d_out.get(), static_cast<int>(in.size()), radius);
  if (launch != 0 || cudaDeviceSynchronize() != cudaSuccess) return {};
  return d_out.read();
}

TEST_F(WindowSum, RadiusZeroCopies) {
  const auto in = ramp(200, 1.0f, 1.0f);
  EXPECT_EQ(window_on_device(in, 0), window_reference(in, 0));
}

TEST_F(WindowSum, RadiusTwo) {
  const auto in = ramp(200, 1.0f, 1.0f);
  EXPECT_EQ(window_on_device(in, 2), window_reference(in, 2));
}

TEST_F(WindowSum, WholeRow) {
  const auto in = ramp(64, 1.0f, 0.0f);
  EXPECT_EQ(window_on_device(in, 64), window_reference(in, 64));
}

TEST_F(Normalize, ByFour) {
  const auto in = ramp(128, 4.0f, 4.0f);
  DeviceFloats d(in);
  finish(gpu_check::normalize(d.get(), 128, 4.0f));
  EXPECT_EQ(d.read(), ramp(128, 1.0f, 1.0f));
}

// Norm 0 launches the kernel zero times: none of its device lines may be recorded.
TEST_F(Normalize, ZeroNormLaunchesNothing) {
  const auto in = ramp(128, 4.0f, 4.0f);
  DeviceFloats d(in);
  finish(gpu_check::normalize(d.get(), 128, 0.0f));
  EXPECT_EQ(d.read(), in);
}

std::vector<float> scatter_on_device(const std::vector<float>& in, const std::vector<int>& index, bool null_out) {
  DeviceFloats d_in(in), d_out(std::vector<float>(in.size()));
  int* d_index = nullptr;
  if (cudaMalloc(&d_index, index.size() * sizeof(int)) != cudaSuccess) return {};
  cudaMemcpy(d_index, index.data(), index.size() * sizeof(int), cudaMemcpyHostToDevice);
  const int launch = gpu_check::scatter(d_in.get(), d_index, null_out ? nullptr : d_out.get(), static_cast<int>(in.size()));
  const cudaError_t done = cudaDeviceSynchronize();
  cudaFree(d_index);
  EXPECT_EQ(launch, 0);
  EXPECT_EQ(done, cudaSuccess) << cudaGetErrorString(done);
  return done == cudaSuccess ? d_out.read() : std::vector<float>{};
}

TEST_F(Scatter, Reverses) {
  const auto in = ramp(100, 0.0f, 1.0f);
  std::vector<int> index;
  for (int i = 0; i < 100; ++i) index.push_back(99 - i);
  EXPECT_EQ(scatter_on_device(in, index, false), ramp(100, 99.0f, -1.0f));
}

// A kernel that completed, then one that writes through a null output (an illegal address:
// the CUDA context is unusable afterwards). Run alone (GPU_CHECK_TRAP=1, its own process):
// it checks what device coverage survives a trap, and fails by design.
TEST_F(DeviceTrap, ClampThenScatterToNull) {
  if (std::getenv("GPU_CHECK_TRAP") == nullptr) GTEST_SKIP() << "traps the CUDA context: run with GPU_CHECK_TRAP=1";
  const auto in = ramp(128, 0.0f, 1.0f);
  DeviceFloats d_in(in), d_out(std::vector<float>(in.size()));
  finish(gpu_check::clamp(d_in.get(), d_out.get(), 128, -1.0f, 500.0f));
  std::vector<int> index(in.size(), 0);
  scatter_on_device(in, index, true);
}

}  // namespace
