// merge_repeated_runs(): N collections of the same suite (`dlfl collect --repeat N`) as one
// spectrum in which a test failing in k of its N runs has failure weight k/N (flaky when
// 0 < k < N) and covers what any of its runs covered. Every run is a full, independent
// collection, so a crash in one run costs that run only.
#pragma once

#include <string>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::collect {

struct RepeatedRuns {
  Spectrum spectrum;               // tests in the first run's order, then tests met later
  std::vector<std::string> flaky;  // "NAME k/N" of each flaky test
};

// Elements are matched by name and kind (a line that only a later run listed is added).
// A test missing from some runs counts the runs it was in. Throws dlfl::Error for no run.
RepeatedRuns merge_repeated_runs(const std::vector<Spectrum>& runs);

}  // namespace dlfl::collect
