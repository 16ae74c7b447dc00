// The ClangTool set-up every Clang pass of the mutation tools shares: CUDA commands
// translated for clang, clang's own builtin headers, warnings off, syntax only.
#pragma once

#include <clang/Basic/FileEntry.h>
#include <clang/Tooling/Tooling.h>

#include <string>
#include <vector>

namespace dlfl::mutate::detail {

// Adjusts `tool`'s compile commands: nvcc commands become clang CUDA commands parsing
// against the CUDA stub headers in `cuda_stub_dir`, `extra_args` go last, warnings are
// off (-w; or as extra_args say when they hold -Wno-everything), and the parse stops
// after semantic analysis (no output files).
void adjust_compile_commands(clang::tooling::ClangTool& tool, const std::vector<std::string>& extra_args,
                             const std::string& cuda_stub_dir);

// The file's real path (symlinks resolved) as clang knows it, else its name made absolute
// without `.` and `..`: how every pass names a file, to match mutants across passes.
std::string real_file_path(const clang::FileEntryRef& entry);

}  // namespace dlfl::mutate::detail
