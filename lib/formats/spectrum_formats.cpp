// Spectrum file formats: names, detection, and dispatch to the per-format readers/writers.
#include "dlfl/formats/spectrum_formats.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <string>

#include "dlfl/error.h"
#include "dlfl/formats/gzoltar_format.h"
#include "dlfl/formats/lcov_format.h"
#include "dlfl/formats/legacy_format.h"
#include "dlfl/formats/matrix_market_format.h"
#include "dlfl/formats/native_format.h"

namespace dlfl::io {
namespace fs = std::filesystem;

namespace {
// The spectrum formats' names, in SpectrumFormat's order: the one list of them, which
// spectrum_format_name, parse_spectrum_format and the CLI's choices read.
constexpr std::array<std::string_view, 5> kFormatNames = {"gzoltar", "legacy", "native", "matrix-market", "lcov"};
static_assert(static_cast<std::size_t>(SpectrumFormat::lcov) + 1 == kFormatNames.size());
}  // namespace

std::span<const std::string_view> spectrum_format_names() noexcept { return kFormatNames; }

std::string_view spectrum_format_name(SpectrumFormat format) noexcept {
  const auto i = static_cast<std::size_t>(format);
  return i < kFormatNames.size() ? kFormatNames[i] : "unknown";
}

SpectrumFormat parse_spectrum_format(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::size_t i = 0; i < kFormatNames.size(); ++i)
    if (lower == kFormatNames[i]) return static_cast<SpectrumFormat>(i);
  if (lower == "mtx" || lower == "matrixmarket") return SpectrumFormat::matrix_market;
  throw Error("unknown spectrum format '" + excerpt(name) +
              "' (expected gzoltar, legacy, native, matrix-market or lcov)");
}

SpectrumFormat detect_spectrum_format(const fs::path& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) throw Error(path.string(), 0, "no such file or directory");
  if (fs::is_directory(status)) {
    if (fs::exists(path / "matrix.txt", ec)) return SpectrumFormat::gzoltar;
    if (fs::exists(path / "matrix", ec)) return SpectrumFormat::legacy;
    throw Error(path.string(), 0,
                "not a spectrum directory: holds neither matrix.txt (GZoltar) nor matrix (legacy)");
  }
  // A FIFO or device is never a spectrum; said here before any reader could block on it.
  if (!fs::is_regular_file(status)) throw Error(path.string(), 0, "not a regular file");
  if (has_native_magic(path)) return SpectrumFormat::native;
  if (path.extension() == ".mtx") return SpectrumFormat::matrix_market;
  if (path.extension() == ".info" || path.extension() == ".lcov") return SpectrumFormat::lcov;
  if (path.filename() == "matrix.txt") return SpectrumFormat::gzoltar;
  if (path.filename() == "matrix") return SpectrumFormat::legacy;
  throw Error(path.string(), 0,
              "not a spectrum: expected a native .dlfl file, a GZoltar directory (matrix.txt) "
              "or a legacy matrix file");
}

SpectrumFormat infer_output_format(const fs::path& path) {
  if (path.extension() == ".dlfl") return SpectrumFormat::native;
  if (path.extension() == ".mtx") return SpectrumFormat::matrix_market;
  if (path.extension() == ".info" || path.extension() == ".lcov") return SpectrumFormat::lcov;
  if (path.filename() == "matrix") return SpectrumFormat::legacy;
  return SpectrumFormat::gzoltar;
}

Spectrum read_spectrum(const fs::path& path) {
  return read_spectrum(path, detect_spectrum_format(path));
}

Spectrum read_spectrum(const fs::path& path, SpectrumFormat format) {
  switch (format) {
    case SpectrumFormat::gzoltar: return read_gzoltar(path);
    case SpectrumFormat::legacy: return read_legacy(path);
    case SpectrumFormat::native: return read_native(path);
    case SpectrumFormat::matrix_market: return read_matrix_market(path);
    case SpectrumFormat::lcov: return read_lcov(path);
  }
  throw Error("unknown spectrum format");
}

std::size_t write_spectrum(const Spectrum& spectrum, const fs::path& path, SpectrumFormat format) {
  switch (format) {
    case SpectrumFormat::gzoltar: return write_gzoltar(spectrum, path);
    case SpectrumFormat::legacy: return write_legacy(spectrum, path);
    case SpectrumFormat::native: write_native(spectrum, path); return 0;
    case SpectrumFormat::matrix_market: return write_matrix_market(spectrum, path);
    case SpectrumFormat::lcov: return write_lcov(spectrum, path);
  }
  throw Error("unknown spectrum format");
}

}  // namespace dlfl::io
