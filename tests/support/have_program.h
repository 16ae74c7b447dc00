// Whether a program a test needs is on the PATH: tests that drive compilers, gcov,
// mpirun or chromium skip, saying which one is missing, on a machine without it.
#pragma once

#include <cstdlib>
#include <string>

namespace dlfl::testing {

inline bool have_program(const std::string& name) {
  return std::system(("command -v '" + name + "' >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace dlfl::testing
