// adjust_compile_commands(): the compile-command rewriting of every mutation pass.
#include "clang_units.h"

#include <clang/Tooling/ArgumentsAdjusters.h>

#include <algorithm>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include "cuda_args.h"  // the instrumenter's nvcc → clang CUDA command translation

namespace dlfl::mutate::detail {

void adjust_compile_commands(clang::tooling::ClangTool& tool, const std::vector<std::string>& extra_args,
                             const std::string& cuda_stub_dir) {
  namespace cuda = instrument::detail;
  tool.appendArgumentsAdjuster([extra_args, cuda_stub_dir](const clang::tooling::CommandLineArguments& args,
                                                           llvm::StringRef file) {
    clang::tooling::CommandLineArguments out =
        cuda::is_cuda_command(args, file.str()) ? cuda::clang_cuda_args(args, file.str(), cuda_stub_dir) : args;
    // Builtin headers (stddef.h...) come from the clang we link, not from next to dlfl.
    // Warnings are off (-w), unless the caller turns them off itself to raise some to
    // errors (-Wno-everything -Werror=X), which -w would silence too.
    const bool own_warnings = std::find(extra_args.begin(), extra_args.end(), "-Wno-everything") != extra_args.end();
    out.insert(out.begin() + 1, {"-resource-dir", DLFL_CLANG_RESOURCE_DIR});
    if (!own_warnings) out.insert(out.begin() + 3, "-w");
    out.insert(out.end(), extra_args.begin(), extra_args.end());
    return out;
  });
  tool.appendArgumentsAdjuster(clang::tooling::getClangStripOutputAdjuster());
  tool.appendArgumentsAdjuster(clang::tooling::getClangStripDependencyFileAdjuster());
  tool.appendArgumentsAdjuster(clang::tooling::getClangSyntaxOnlyAdjuster());
}

std::string real_file_path(const clang::FileEntryRef& entry) {
  std::string real = entry.getFileEntry().tryGetRealPathName().str();
  if (!real.empty()) return real;
  llvm::SmallString<256> abs(entry.getName());
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, true);
  return abs.str().str();
}

}  // namespace dlfl::mutate::detail
