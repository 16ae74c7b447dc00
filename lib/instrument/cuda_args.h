// Compile commands for CUDA files: nvcc's command line turned into one clang 14 can parse.
#pragma once

#include <string>
#include <vector>

namespace dlfl::instrument::detail {

// The names the stub header answers for (written into a temporary directory per run);
// all but cuda_runtime.h just include it.
inline constexpr const char* kCudaStubNames[] = {"cuda_runtime.h", "cuda_runtime_api.h", "cuda.h",
                                                 "device_launch_parameters.h"};
extern const char* const kCudaStubHeader;

// The stub headers written into a private temporary directory for one run, removed with
// the object. (Mapping them as virtual files under kCudaStubDir is not enough: clang 14's
// header search does not find them there.)
class CudaStubDirectory {
 public:
  CudaStubDirectory();
  ~CudaStubDirectory();
  CudaStubDirectory(const CudaStubDirectory&) = delete;
  CudaStubDirectory& operator=(const CudaStubDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Kept for callers that still map the stub as virtual files (see CudaStubDirectory).
inline constexpr const char* kCudaStubDir = "/__dlfl_cuda_stub__";

// Whether a compile command builds CUDA: a .cu file, `-x cu`/`-x cuda`, or nvcc.
bool is_cuda_command(const std::vector<std::string>& args, const std::string& file);

// clang's host-only CUDA parse of `file` with the -I/-D/-U/-isystem/-include/-std options
// of `args` (nvcc or clang); other options (architectures, -Xcompiler, ...) are dropped.
// `stub_dir` holds the stub headers and is searched first.
std::vector<std::string> clang_cuda_args(const std::vector<std::string>& args, const std::string& file,
                                         const std::string& stub_dir = kCudaStubDir);

}  // namespace dlfl::instrument::detail
