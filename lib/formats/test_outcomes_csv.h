// The test outcomes sidecar `name,outcome,failure_weight` shared by the Matrix Market and
// lcov interchange formats (their own files hold coverage only). Internal to dlfl_formats.
#pragma once

#include <filesystem>
#include <ostream>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::io::detail {

// Header `name,outcome,failure_weight`, one test a line in spectrum order. outcome is PASS
// (weight 0), FAIL (1), CRASH (1, killed by a signal), TIMEOUT (1, over the time limit)
// or FLAKY (0 < weight < 1); names are RFC 4180-quoted when they hold , " or a line
// break. Runtimes and messages are not kept.
void write_test_outcomes(const Spectrum& spectrum, std::ostream& out);

// Throws dlfl::Error("FILE:LINE: what") for a wrong header, a field count other than 3,
// an unknown outcome, a weight outside [0, 1] or one that disagrees with the outcome.
std::vector<TestCase> read_test_outcomes(const std::filesystem::path& path);

}  // namespace dlfl::io::detail
