// lcov tracefiles with one section per test (`TN:` records, what `geninfo`/`lcov -t NAME`
// write and `genhtml --show-details` shows) as a spectrum, and back.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::io {

// The tests of TRACE.info and their outcomes live in the sidecar TRACE.tests.csv (the
// header `name,outcome,failure_weight` of matrix_market_format.h: PASS, FAIL, CRASH,
// TIMEOUT or FLAKY with the failure weight), since lcov has no outcomes.
//
// Reading TRACE (any name):
//  - `TN:NAME` starts the records of a test (up to the next TN); `SF:FILE` ...
//    `end_of_record` is one file's record. In it `DA:LINE,COUNT[,CHECKSUM]` makes (FILE,
//    LINE) an element, covered by the current test when COUNT > 0 (negative counts read
//    as 0, as genhtml does); `FN:LINE,NAME` (lcov 1.x) or `FN:LINE,END,NAME` (2.x) says a
//    function starts at LINE. Other records (FNDA, FNF, FNH, BRDA, BRF, BRH, LF, LH, VER)
//    are skipped, and so are comment lines (`#`). A UTF-8 BOM and CRLF line ends are
//    accepted.
//  - `# dlfl companion .tests.csv SIZE XXH3` among the first comment lines (what
//    write_lcov writes) names the sidecar written with TRACE: one of another size or
//    content is an error, not outcomes paired with the wrong sections.
//  - Elements: one per (file, line), in order of first appearance; an element's function
//    is the nearest FN at or above its line in its file.
//  - Tests: the sidecar's, in its order. A TN matches a sidecar test whose name equals it
//    or whose lcov_test_names() form does; several sections of one test add up; a test
//    without a section covered nothing. A section with an empty TN (or none) that names
//    no sidecar test is a baseline (`lcov --capture --initial`): its lines are elements
//    covered by no test.
//  - Errors are dlfl::Error "FILE:LINE: what": a DA or FN outside an SF record, an SF or
//    TN inside one, a record not closed by end_of_record (reported at the line that
//    should have closed it, or at the end of the file), a line number or count that is
//    not a number, a TN that names no sidecar test, a missing or malformed sidecar.
Spectrum read_lcov(const std::filesystem::path& trace);

// Writes TRACE and its sidecar as one output (commit_together: both written in full
// first, then the sidecar renamed, TRACE last; TRACE's first line records the sidecar's
// size and hash, see read_lcov). TRACE then holds a baseline section (`TN:` with an empty name: every element, count 0, and an FN at the
// first line of each run of a function's lines) and then one `TN:` section per test in
// spectrum order with the lines it covered (count 1) and its functions (FNDA). Elements
// keep their order when they are grouped by file (collectors write them so). Throws
// dlfl::Error when the spectrum holds what lcov cannot: an extrinsic element or one
// without a file or line, one spanning several lines (rank lines, not blocks), or two
// elements on the same line. Returns 0 (weights are kept exactly); runtimes and
// messages are not kept.
std::size_t write_lcov(const Spectrum& spectrum, const std::filesystem::path& trace);

// TRACE.tests.csv for TRACE.info (or TRACE.lcov).
std::filesystem::path lcov_tests_path(const std::filesystem::path& trace);

// Test names as lcov may hold them: every character outside [A-Za-z0-9_] becomes '_'
// (genhtml rewrites such names itself; `lcov -t` refuses them), and a name taken before
// gets `_2`, `_3`, ... in the order given.
std::vector<std::string> lcov_test_names(const std::vector<std::string>& names);

}  // namespace dlfl::io
