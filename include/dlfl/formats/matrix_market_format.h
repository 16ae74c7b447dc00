// Matrix Market interchange: the coverage matrix as a standard coordinate file plus two
// sidecar lists, so scipy (scipy.io.mmread), R (Matrix::readMM) and Eigen (loadMarket)
// can produce and check the same spectra.
#pragma once

#include <filesystem>

#include "dlfl/spectrum.h"

namespace dlfl::io {

// For SPECTRUM.mtx the three files are:
//   SPECTRUM.mtx           `%%MatrixMarket matrix coordinate pattern general`, size line
//                          `TESTS ELEMENTS NNZ`, then one `test element` pair a line,
//                          1-based; rows = tests, columns = elements. On read, `integer`
//                          and `real` matrices are accepted too (a non-zero value = covered)
//                          and entries may come in any order; duplicates are merged.
//   SPECTRUM.tests.csv     header `name,outcome,failure_weight`; outcome PASS, FAIL,
//                          CRASH, TIMEOUT or FLAKY; failure_weight in [0, 1] (the share
//                          of failed runs);
//                          names quoted as RFC 4180 when they hold , " or a line break.
//   SPECTRUM.elements.csv  header `name`, one element name a line, in column order, with
//                          GZoltar's spectra.csv naming rules (file#function:line,
//                          key=value for an extrinsic element).
// The comments after the banner may hold `% dlfl companion SUFFIX SIZE XXH3` (what
// write_matrix_market writes): the size and 64-bit XXH3 of the sidecar SPECTRUM.SUFFIX
// written with this file.
// Throws dlfl::Error("FILE:LINE: what") on bad input (wrong banner, sizes that disagree
// with the sidecars, a sidecar other than the one recorded, an index out of range, a
// malformed line).
Spectrum read_matrix_market(const std::filesystem::path& mtx);

// Writes the three files as one output (commit_together: all written in full first, then
// the sidecars renamed, the .mtx last, recording the sidecars' sizes and hashes, see above).
// Returns 0 (nothing is lost: weights are kept exactly).
std::size_t write_matrix_market(const Spectrum& spectrum, const std::filesystem::path& mtx);

// The sidecar paths of SPECTRUM.mtx.
std::filesystem::path matrix_market_tests_path(const std::filesystem::path& mtx);
std::filesystem::path matrix_market_elements_path(const std::filesystem::path& mtx);

}  // namespace dlfl::io
