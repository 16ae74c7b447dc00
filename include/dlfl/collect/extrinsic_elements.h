// Extrinsic elements of a collected suite: the conditions a test ran under (a GoogleTest
// type or value parameter, an environment variable the user names) as elements covered
// by exactly the tests that ran under them, so they rank among the code lines. The pytest
// side is collected by python/dlfl_pytest (pytest_run_collector.h).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::collect {

// Per full test name, the labels `--gtest_list_tests` shows for it: `TypeParam=half` for a
// typed test (`Suite/0.  # TypeParam = half`), `GetParam()=4` for a value-parameterized one
// (`  Case/0  # GetParam() = 4`; the value as GoogleTest prints it, spaces kept). Names as
// parse_gtest_list() makes them; tests without parameters are absent.
std::map<std::string, std::vector<std::string>> gtest_parameter_labels(std::string_view listing);

// `NAME=value` for each name, from this process's environment (`NAME=` when unset).
std::vector<std::string> environment_labels(const std::vector<std::string>& names);

// The spectrum with one extrinsic element per distinct label (first met first, after the
// existing elements), covered by the tests `labels_of` gives it for. Tests, outcomes and
// the other elements are unchanged.
Spectrum add_extrinsic_elements(const Spectrum& spectrum,
                                const std::function<std::vector<std::string>(const TestCase&)>& labels_of);

}  // namespace dlfl::collect
