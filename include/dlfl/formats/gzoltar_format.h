// GZoltar 1.7+ text spectra: a directory with spectra.csv, matrix.txt and tests.csv.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::io {

// The files (GZoltar 1.7+ text layout):
//   spectra.csv  header `name`, then one element a line: `org.pkg$Class#method(args):37`;
//                line i + 2 is matrix column i.
//   matrix.txt   one row per test in tests.csv order: `1 0 1 -`, each cell followed by
//                one space, `+` = pass, `-` = fail.
//   tests.csv    header `name,outcome,runtime,stacktrace`; outcome PASS | FAIL (ERROR,
//                which FLITSR also writes, reads as a failure); runtime in nanoseconds;
//                the stack trace is the rest of the line, unquoted, and may go on over
//                the following lines (Java traces do).
//
// Reading (tolerant of what other tools write):
//  - spectra lines become elements by their shape:
//      `...#method:37:BUG`  FLITSR's fault marker (a method free of ':', a line number,
//                           then anything) is cut off and reported in `marks`;
//      `key=value`          (an identifier-like key, no '#') an extrinsic element, as
//                           dlfl writes labels such as `device=cuda`, `dtype=half`;
//      `pkg.Class#123`      a GZoltar <= 1.6 line element: file `pkg.Class`, line 123,
//                           the name kept as written;
//      anything else        SpectrumBuilder::add_named_element (`file#function:line`);
//  - tests.csv: a line is a new test when its second field is a word (PASS, FAIL, ERROR;
//    any other word is an "unknown outcome" error); other lines continue the previous
//    test's stack trace. runtime and stacktrace may be missing or empty (FLITSR writes
//    `name,FAIL,,`). A name may be quoted RFC 4180-style ("a,b" → a,b), which is how
//    dlfl writes names holding a comma or a quote;
//  - the matrix outcome (+/-) must agree with tests.csv;
//  - blank lines at the end of a file are ignored, CRLF line ends accepted.
// Every error is a dlfl::Error whose what() starts with "FILE:LINE: " (LINE 0 when the
// problem is the whole file, e.g. it is missing).
//
// Lossy on write, by the format's nature:
//  - outcomes are binary: a test with failure weight w > 0 (TestCase::failed()) is
//    written FAIL, so a flaky test (0 < w < 1) reads back as a plain failure; the writer
//    returns how many such tests it rounded;
//  - an element keeps only its display name (Spectrum::element_name): last_line is lost,
//    extrinsic elements come back as extrinsic only if their label has the `key=value`
//    shape, and a name with a line break cannot be written (dlfl::Error);
//  - test status (crashed, timed out) becomes FAIL; the message is the stack trace
//    (trailing line breaks are dropped, and a trace line that would read as a test
//    record, `x,WORD...`, is written with a leading '"');
//  - a test name with a line break cannot be written (dlfl::Error).

// An element FLITSR marks as faulty in spectra.csv (`name:BUG`): ground truth that
// evaluation can use. `bug` is the text after the marker's colon, as written.
struct FaultMark {
  std::uint32_t element = 0;
  std::string bug;
};

// Reads a GZoltar directory; `path` may also name its matrix.txt. Fills `marks` (when
// given) with the FLITSR-marked elements, in file order.
Spectrum read_gzoltar(const std::filesystem::path& path, std::vector<FaultMark>* marks = nullptr);

// Writes the three files into directory `dir`, atomically as a whole (AtomicDirectory:
// an existing directory is replaced only when it holds nothing but these files). Returns
// the number of flaky tests written as FAIL.
std::size_t write_gzoltar(const Spectrum& spectrum, const std::filesystem::path& dir);

}  // namespace dlfl::io
