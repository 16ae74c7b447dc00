// Spectrum file formats: detection and dispatch to one reader/writer per format.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

#include "dlfl/spectrum.h"

namespace dlfl::io {

enum class SpectrumFormat {
  gzoltar,  // directory with matrix.txt, spectra.csv, tests.csv (GZoltar 1.7+)
  legacy,   // `matrix` + `spectra` pair (GZoltar ≤ 1.6 / Defects4J); path = directory or matrix file
  native,   // dlfl's memory-mappable binary file (native_format.h)
  matrix_market,  // SPECTRUM.mtx + .tests.csv + .elements.csv (matrix_market_format.h)
  lcov,           // TRACE.info with one TN: section per test + TRACE.tests.csv (lcov_format.h)
};

// From a name: "gzoltar", "legacy", "native", "matrix-market", "lcov" (case-insensitive); throws dlfl::Error
// listing the valid names otherwise.
SpectrumFormat parse_spectrum_format(std::string_view name);

// What an existing path holds: a directory with matrix.txt → gzoltar, with `matrix` →
// legacy, a file starting with the native magic → native, a `.mtx` file → matrix-market,
// a `.info` or `.lcov` file → lcov, a file named matrix.txt →
// gzoltar (its directory), a file named `matrix` → legacy. Throws dlfl::Error naming the
// path when none fits (or it does not exist).
SpectrumFormat detect_spectrum_format(const std::filesystem::path& path);

// The format an output path implies when none is given: `.dlfl` → native, `.mtx` →
// matrix-market, `.info` / `.lcov` → lcov, a path ending in `matrix` → legacy, anything else (a directory) → gzoltar.
SpectrumFormat infer_output_format(const std::filesystem::path& path);

// Reads a spectrum in any format; throws dlfl::Error "FILE:LINE: what" on bad input.
Spectrum read_spectrum(const std::filesystem::path& path);
Spectrum read_spectrum(const std::filesystem::path& path, SpectrumFormat format);

// Writes atomically: the output appears complete or not at all (a failed write leaves
// nothing behind and no earlier output is half-replaced; see atomic_file.h for when an
// existing directory is replaced). Returns the number of tests whose outcome the format
// cannot express exactly: flaky tests (0 < failure weight < 1) that the GZoltar and
// legacy formats write as failures; always 0 for native. Throws dlfl::Error on failure.
std::size_t write_spectrum(const Spectrum& spectrum, const std::filesystem::path& path,
                           SpectrumFormat format);

// "gzoltar", "legacy", "native", "matrix-market" or "lcov".
std::string_view spectrum_format_name(SpectrumFormat format) noexcept;

// Every format's name, in SpectrumFormat's order: the CLI's choices.
std::span<const std::string_view> spectrum_format_names() noexcept;

}  // namespace dlfl::io
