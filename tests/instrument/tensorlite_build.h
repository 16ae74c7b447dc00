// Builds of the bundled example, examples/tensorlite, for the end-to-end tests: a gcov
// build of the originals and a build of the `dlfl instrument` tree linked with the
// runtime. Kept under the test's build directory and rebuilt incrementally, so only the
// first run pays for the compiles.
#pragma once

#include <string>

#include "instrument_test_support.h"

namespace dlfl::testing {

struct TensorliteBuilds {
  fs::path source;        // examples/tensorlite
  fs::path gcov_build;    // originals built with --coverage -O0
  fs::path instr_tree;    // `dlfl instrument` output (probe map inside)
  fs::path instr_build;   // that tree built with $(dlfl config ...) -O0
  std::string error;      // set when a step failed, with its output
  fs::path gcov_binary() const { return gcov_build / "tensorlite_tests"; }
  fs::path instr_binary() const { return instr_build / "tensorlite_tests"; }
};

// Copies `from` over `to` file by file, leaving files whose content is unchanged alone
// (their timestamps too, so ninja rebuilds only what the instrumenter really changed).
inline void sync_tree(const fs::path& from, const fs::path& to) {
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    if (!entry.is_regular_file()) continue;
    const fs::path target = to / entry.path().lexically_relative(from);
    if (fs::exists(target) && slurp(target) == slurp(entry.path())) continue;
    fs::create_directories(target.parent_path());
    fs::copy_file(entry.path(), target, fs::copy_options::overwrite_existing);
  }
}

inline TensorliteBuilds build_tensorlite(const fs::path& cache, const std::string& dlfl) {
  TensorliteBuilds b;
  b.source = fs::path(DLFL_SOURCE_DIR) / "examples/tensorlite";
  b.gcov_build = cache / "gcov";
  b.instr_tree = cache / "instrumented";
  b.instr_build = cache / "instrumented-build";
  auto step = [&](const std::string& command) {
    if (!b.error.empty()) return;
    const Shell r = sh(command);
    if (r.exit_code != 0) b.error = command + "\n" + r.output;
  };
  // -O0 for both: gcov's line attribution is exact only without optimisation.
  if (!fs::exists(b.gcov_build / "CMakeCache.txt"))
    step("cmake -S " + b.source.string() + " -B " + b.gcov_build.string() +
         " -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS='-O0 --coverage' -DCMAKE_EXE_LINKER_FLAGS=--coverage");
  step("cmake --build " + b.gcov_build.string() + " -j2");
  const fs::path fresh = cache / "instrumented-new";
  fs::remove_all(fresh);
  step(dlfl + " instrument -q -p " + b.gcov_build.string() + " --root " + b.source.string() + " --out " +
       fresh.string() + " --exclude tests/");
  if (b.error.empty()) sync_tree(fresh, b.instr_tree);
  if (!fs::exists(b.instr_build / "CMakeCache.txt"))
    step("cmake -S " + b.instr_tree.string() + " -B " + b.instr_build.string() +
         " -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS=\"-O0 $(" + dlfl +
         " config --cflags)\" -DCMAKE_EXE_LINKER_FLAGS=\"$(" + dlfl + " config --libs --gtest)\"");
  step("cmake --build " + b.instr_build.string() + " -j2");
  return b;
}

}  // namespace dlfl::testing
