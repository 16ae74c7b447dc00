// dlfl's native spectrum file: streamed out section by section, read back by mmap.
#include "dlfl/formats/native_format.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"
#include "dlfl/files/atomic_file.h"
#include "native_layout.h"
#include "native_mapping.h"

namespace dlfl::io {
namespace fs = std::filesystem;

// The file is the in-memory image of its arrays; a big-endian host would need byte
// swapping on every access, which defeats mapping.
static_assert(std::endian::native == std::endian::little,
              "dlfl's native spectrum format requires a little-endian host");

using namespace native;

namespace {

template <class T>
std::span<const char> bytes_of(std::span<const T> values) {
  return {reinterpret_cast<const char*>(values.data()), values.size_bytes()};
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Writing

void write_native(const Spectrum& spectrum, std::ostream& out) {
  // Tests are few: their records and text are built in memory; everything else is
  // written straight from the spectrum's arrays.
  auto [test_records, text] = native::test_table(spectrum.tests());
  // The failing rows: taken from the spectrum when attached, else built (one pass).
  std::optional<FailingCoverage> built;
  const FailingCoverage* failing = spectrum.failing_coverage();
  if (failing == nullptr) {
    const auto ids = spectrum.failing_test_ids();
    failing = &built.emplace(FailingCoverage::of(spectrum.coverage(), ids));
  }

  const auto& strings = spectrum.strings();
  const auto& coverage = spectrum.coverage();
  const auto& origin = spectrum.origin();
  const std::uint64_t map_id[1] = {origin.probe_map_id};
  const std::array<std::span<const char>, kSectionIds + 1> sections = {{
      {},
      strings.blob(),
      bytes_of(strings.offsets()),
      bytes_of(spectrum.elements()),
      bytes_of(std::span<const NativeTestRecord>(test_records)),
      std::span<const char>(text),
      bytes_of(coverage.offsets()),
      bytes_of(coverage.test_ids()),
      bytes_of(coverage.all_bits()),
      std::span<const char>(origin.source_root),
      bytes_of(std::span<const std::uint64_t>(map_id, origin.probe_map_id ? 1 : 0)),
      bytes_of(failing->tests()),
      bytes_of(failing->offsets()),
      bytes_of(failing->elements()),
  }};
  SectionItems items{};
  for (std::uint32_t id = 1; id <= kSectionIds; ++id) items[id] = sections[id].size() / kItemSizes[id];
  ImageStreamWriter image(out, items);
  for (std::uint32_t id = 1; id <= kSectionIds; ++id) {
    image.begin(SectionId(id));
    image.write(sections[id].data(), sections[id].size());
  }
  image.finish();
}

void write_native(const Spectrum& spectrum, const fs::path& path) {
  AtomicFile file(path);
  try {
    write_native(spectrum, file.stream());
  } catch (const Error&) {
    // The stream reports the failure; commit() below turns it into a message with errno.
  }
  file.commit();
}

// ---------------------------------------------------------------------------------------
// Reading (the steps are in native_mapping.cpp)

bool has_native_magic(const fs::path& path) noexcept {
  try {
    const InputFile input(path);  // not a regular file: not a native spectrum either
    char magic[8];
    const ssize_t n = ::pread(input.fd(), magic, sizeof magic, 0);
    return n == static_cast<ssize_t>(sizeof magic) && std::string_view(magic, sizeof magic) == kNativeMagic;
  } catch (...) {
    return false;
  }
}

Spectrum read_native(const fs::path& path, const NativeReadOptions& options) {
  MappedNative map = map_native(path);
  // Before the section table: a damaged table is reported as the damage it is.
  if (options.verify_checksum) NativeChecksum(map).verify();
  read_section_table(map);
  return native_spectrum(map, native_elements(map));
}

}  // namespace dlfl::io
