// A spectrum restricted to some of its elements and tests: e.g. without test code, or
// without tests that fail for a reason other than the fault under study.
#pragma once

#include <functional>

#include "dlfl/spectrum.h"

namespace dlfl {

// The elements for which keep_element(e) and the tests for which keep_test(t) holds (an
// empty function keeps all), in their original order, with their coverage, names and
// outcomes. O(nnz) time and memory.
Spectrum subset(const Spectrum& spectrum, const std::function<bool(std::size_t element)>& keep_element,
                const std::function<bool(std::size_t test)>& keep_test);

}  // namespace dlfl
