// GZoltar's legacy spectra (0.1.x-1.6, Defects4J fault-localization data): `matrix` + `spectra`.
#pragma once

#include <filesystem>

#include "dlfl/spectrum.h"

namespace dlfl::io {

// The files (GZoltar's legacy layout), neither with a header:
//   spectra  one element name a line (`org.pkg.Class#123`, or GZoltar 1.7 names);
//   matrix   one row per test, same syntax as matrix.txt: `1 0 1 -`.
// The layout has no test names: tests read back as `test_1`, `test_2`, ... (1-based, in
// row order), with runtime 0 and no message; written names are lost. Element names and
// outcomes follow the GZoltar rules (gzoltar_format.h): flaky tests are written as
// failures, `key=value` names read as extrinsic elements.
//
// `path` is either the directory holding both files or the `matrix` file itself (then
// `spectra` is its sibling). Errors are dlfl::Error "FILE:LINE: what".
Spectrum read_legacy(const std::filesystem::path& path);

// Writes both files. When `path` is a file named `matrix`, they go next to it (each file
// atomically, both complete before either is renamed into place); otherwise `path` is
// a directory written atomically as a whole (see AtomicDirectory). Returns the number of
// flaky tests written as failures.
std::size_t write_legacy(const Spectrum& spectrum, const std::filesystem::path& path);

}  // namespace dlfl::io
