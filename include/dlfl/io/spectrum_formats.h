// Spectrum file formats: detection and dispatch to one reader/writer per format.
#pragma once

#include <filesystem>
#include <string_view>

#include "dlfl/spectrum.h"

namespace dlfl::io {

enum class SpectrumFormat {
  gzoltar,  // directory with matrix.txt, spectra.csv, tests.csv (GZoltar 1.7+, REFERENCE §3)
  legacy,   // `matrix` + `spectra` pair (GZoltar ≤ 1.6 / Defects4J); path = directory or matrix file
  native,   // dlfl's memory-mappable binary file (native_format.h)
};

// From a name: "gzoltar", "legacy", "native"; throws dlfl::Error otherwise.
SpectrumFormat parse_spectrum_format(std::string_view name);

// What an existing path holds: a directory with matrix.txt → gzoltar, with `matrix` →
// legacy, a file starting with the native magic → native. Throws dlfl::Error naming the
// path when none fits.
SpectrumFormat detect_spectrum_format(const std::filesystem::path& path);

// The format an output path implies when none is given: `.dlfl` → native, a path
// ending in `matrix` → legacy, anything else (a directory) → gzoltar.
SpectrumFormat infer_output_format(const std::filesystem::path& path);

// Reads a spectrum in any format; throws dlfl::Error "FILE:LINE: what" on bad input.
Spectrum read_spectrum(const std::filesystem::path& path);
Spectrum read_spectrum(const std::filesystem::path& path, SpectrumFormat format);

// Writes atomically: the output appears complete or not at all (a failed write leaves
// nothing behind and no earlier output is half-replaced).
void write_spectrum(const Spectrum& spectrum, const std::filesystem::path& path,
                    SpectrumFormat format);

}  // namespace dlfl::io
