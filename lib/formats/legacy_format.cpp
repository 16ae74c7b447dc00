// GZoltar's legacy spectra: `matrix` + `spectra`, no headers, no test names.
#include "dlfl/formats/legacy_format.h"

#include <string>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "gzoltar_text.h"

namespace dlfl::io {
namespace fs = std::filesystem;

namespace {

bool names_matrix_file(const fs::path& path) {
  return path.filename() == "matrix";
}

// Writes `spectra` and `matrix` into AtomicFiles under `dir` named after `target_dir`.
std::size_t write_pair(const Spectrum& spectrum, const fs::path& dir, const fs::path& target_dir) {
  AtomicFile spectra(dir / "spectra");
  const std::string label = (target_dir / "spectra").string();
  std::string scratch;
  for (std::size_t e = 0; e < spectrum.element_count(); ++e)
    spectra.stream() << detail::spectra_line(spectrum, e, scratch, label) << '\n';
  AtomicFile matrix(dir / "matrix");
  const std::size_t rounded = detail::write_matrix(spectrum, matrix.stream());
  // Both files are complete (and fsynced by commit) before either replaces an old one;
  // a failure in the first commit leaves both old files in place.
  spectra.commit();
  matrix.commit();
  return rounded;
}

}  // namespace

Spectrum read_legacy(const fs::path& path) {
  std::error_code ec;
  const fs::path dir = fs::is_directory(path, ec) ? path : path.parent_path();
  const fs::path matrix_path = fs::is_directory(path, ec) ? path / "matrix" : path;
  const fs::path spectra_path = (dir.empty() ? fs::path(".") : dir) / "spectra";

  // The matrix is opened first so that a wrong path is reported as a missing matrix; it is
  // streamed, with rows bounded once the element count is known.
  const std::string file = matrix_path.string();
  detail::TextFileLines lines(matrix_path, kMaxFieldBytes, "matrix row");

  SpectrumBuilder builder;
  detail::TextFileLines spectra_lines = detail::element_name_lines(spectra_path);
  detail::add_spectra_lines(spectra_lines, spectra_path.string(), builder, nullptr);

  // No test list to compare with: the matrix decides how many tests there are.
  lines.set_max_line_bytes(detail::max_matrix_row_bytes(builder.element_count()));
  detail::parse_matrix(lines, detail::kAnyRowCount, builder.element_count(), file, "the matrix",
                       [&](std::size_t row, std::size_t, std::span<const std::uint32_t> covered,
                           bool failed) {
                         std::string name = "test_" + std::to_string(row + 1);
                         builder.add_test(failed ? TestCase::fail(std::move(name))
                                                 : TestCase::pass(std::move(name)),
                                          covered);
                       });
  return std::move(builder).finish();
}

std::size_t write_legacy(const Spectrum& spectrum, const fs::path& path) {
  if (names_matrix_file(path)) {
    const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    return write_pair(spectrum, dir, dir);
  }
  AtomicDirectory out(path);
  const std::size_t rounded = write_pair(spectrum, out.temp_path(), out.target());
  out.commit();
  return rounded;
}

}  // namespace dlfl::io
