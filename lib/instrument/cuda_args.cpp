// Turns nvcc compile commands into clang 14 CUDA parse commands (see REFERENCE.md §6).
#include "cuda_args.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string_view>

namespace dlfl::instrument::detail {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

CudaStubDirectory::CudaStubDirectory() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("dlfl-cuda-stub-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const char* name : kCudaStubNames) {
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out << (std::string_view(name) == "cuda_runtime.h" ? kCudaStubHeader : "#include <cuda_runtime.h>\n");
  }
  path_ = dir.string();
}

CudaStubDirectory::~CudaStubDirectory() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

bool is_cuda_command(const std::vector<std::string>& args, const std::string& file) {
  if (ends_with(file, ".cu") || ends_with(file, ".cuh")) return true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-x" && i + 1 < args.size() && (args[i + 1] == "cu" || args[i + 1] == "cuda")) ||
        args[i] == "-xcu" || args[i] == "-xcuda")
      return true;
  }
  return !args.empty() && ends_with(args[0], "nvcc");
}

std::vector<std::string> clang_cuda_args(const std::vector<std::string>& args, const std::string& file,
                                         const std::string& stub_dir) {
  std::vector<std::string> out{"clang++"};
  // Options taking a value, kept with it; nvcc also spells them `--opt value`/`--opt=value`.
  static constexpr std::string_view kWithValue[] = {"-I", "-isystem", "-D", "-U", "-include", "-iquote"};
  static constexpr std::string_view kLongNames[][2] = {{"--include-path", "-I"}, {"--system-include", "-isystem"},
                                                       {"--define-macro", "-D"}, {"--undefine-macro", "-U"},
                                                       {"--pre-include", "-include"}};
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == file) continue;
    bool handled = false;
    for (const auto& [name, flag] : kLongNames) {
      if (a == name && i + 1 < args.size()) {
        out.insert(out.end(), {std::string(flag), args[++i]});
        handled = true;
      } else if (a.size() > name.size() && a.substr(0, name.size()) == name && a[name.size()] == '=') {
        out.insert(out.end(), {std::string(flag), std::string(a.substr(name.size() + 1))});
        handled = true;
      }
    }
    if (handled) continue;
    for (std::string_view flag : kWithValue) {
      if (a == flag && i + 1 < args.size()) {
        out.insert(out.end(), {std::string(flag), args[++i]});
        handled = true;
        break;
      }
      if (a.size() > flag.size() && a.substr(0, flag.size()) == flag) {
        std::string_view value = a.substr(flag.size());
        if (value.front() == '=') value.remove_prefix(1);  // nvcc's -isystem=DIR
        out.insert(out.end(), {std::string(flag), std::string(value)});
        handled = true;
        break;
      }
    }
    if (handled) continue;
    if (a.substr(0, 5) == "-std=" || a.substr(0, 6) == "--std=") {
      out.push_back("-std=" + std::string(a.substr(a.find('=') + 1)));
    } else if ((a == "-std" || a == "--std") && i + 1 < args.size()) {
      out.push_back("-std=" + args[++i]);
    }
  }
  // The stub directory is searched first, so its cuda_runtime.h wins over any real one.
  out.insert(out.begin() + 1, {"-I", stub_dir});
  out.insert(out.end(), {"-x", "cuda", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_70", "--cuda-host-only",
                         "-Wno-unknown-cuda-version", file});
  return out;
}

}  // namespace dlfl::instrument::detail
