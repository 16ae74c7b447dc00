// Builds of the C example subject, examples/calc, with one seeded fault, for the
// end-to-end tests: a gcov build (--coverage -O0) and a build of its `dlfl instrument`
// tree linked with the runtime. Kept under the test's build directory (incremental).
#pragma once

#include <string>

#include "instrument_test_support.h"

namespace dlfl::testing {

inline const fs::path kCalcSource = fs::path(DLFL_SOURCE_DIR) / "examples/calc";

struct CalcBuilds {
  fs::path gcov_build, instr_tree, instr_build;
  std::string error;  // set when a step failed, with its output
};

// Both builds of calc with `fault` (an id of faults/faults.json) under `cache`.
inline CalcBuilds build_calc(const fs::path& cache, const std::string& fault) {
  CalcBuilds b{cache / "gcov", cache / "instrumented", cache / "instrumented-build", {}};
  auto step = [&](const std::string& command) {
    if (!b.error.empty()) return;
    const Shell r = sh(command);
    if (r.exit_code != 0) b.error = command + "\n" + r.output;
  };
  const std::string dlfl = DLFL_BINARY;
  step("cmake -S " + kCalcSource.string() + " -B " + b.gcov_build.string() +
       " -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_C_FLAGS='-O0 --coverage' -DCALC_FAULT=" + fault);
  step("cmake --build " + b.gcov_build.string());
  step(dlfl + " instrument -q -j2 -p " + b.gcov_build.string() + " --root " + kCalcSource.string() + " --out " +
       b.instr_tree.string());
  step("cmake -S " + b.instr_tree.string() + " -B " + b.instr_build.string() + " -G Ninja -DCMAKE_BUILD_TYPE= -DCALC_FAULT=" +
       fault + " -DCMAKE_C_FLAGS=\"-O0 $(" + dlfl + " config --cflags)\" -DCMAKE_EXE_LINKER_FLAGS=\"$(" + dlfl +
       " config --libs)\"");
  step("cmake --build " + b.instr_build.string());
  return b;
}

}  // namespace dlfl::testing
