// A native spectrum file mapped read-only, and the checked steps that turn it into a
// Spectrum: read_native runs them all at once; dlfl merge runs the coverage checks and the
// checksum piece by piece as it streams through its inputs, so each page is read once.
// Internal to dlfl_formats.
#pragma once

#include <xxhash.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "dlfl/spectrum.h"
#include "native_layout.h"

namespace dlfl::io::native {

// The mapping (munmap when the last view is gone), its header and, once read, its section
// table. Every check throws dlfl::Error(file, 0, "...").
struct MappedNative {
  std::string file;  // the path, for messages
  const char* data = nullptr;
  std::size_t size = 0;
  std::shared_ptr<const void> keeper;
  FileHeader header{};
  std::array<std::optional<SectionEntry>, kSectionIds + 1> sections;  // by id; set by read_section_table

  // A section's items in place (empty when absent): the mapping is page-aligned and every
  // section 8-aligned, so the pointer suits each item type used.
  template <class T>
  std::span<const T> view(SectionId id) const {
    if (!sections[id]) return {};
    return {reinterpret_cast<const T*>(data + sections[id]->offset), static_cast<std::size_t>(sections[id]->items)};
  }
  // The file offset just past section `id` (0 when absent).
  std::uint64_t end_of(SectionId id) const { return sections[id] ? sections[id]->offset + sections[id]->size : 0; }
  // Sparse coverage stores offsets; dense coverage stores none.
  bool dense() const { return view<std::uint64_t>(coverage_offsets).empty(); }
};

// Opens and maps `path` and checks its header: magic, version, file size.
MappedNative map_native(const std::filesystem::path& path);
// Reads and checks the section table: entries in bounds, 8-aligned, of their item size,
// none twice, the version-1 sections present.
void read_section_table(MappedNative& map);

// The file's XXH3 checksum (see native_format.h) taken in file order, piece by piece, so
// that a reader going through the file once can hash each piece while it is in cache.
class NativeChecksum {
 public:
  explicit NativeChecksum(const MappedNative& map);
  NativeChecksum(const NativeChecksum&) = delete;
  NativeChecksum& operator=(const NativeChecksum&) = delete;
  ~NativeChecksum();
  // Hashes the bytes from where the last call stopped up to file offset `end` (nothing
  // when already past it).
  void hash_through(std::uint64_t end);
  // Hashes the rest; throws dlfl::Error(file, 0, "checksum mismatch: the file is
  // corrupted") when the digest differs from the header's.
  void verify();

 private:
  std::string file_;
  const char* data_;
  std::uint64_t size_, expected_, position_;
  XXH3_state_t* state_;
};

// The string pool and element table, views into the mapping (checked by Spectrum's
// constructor). Elements of files older than languages hold 0 (unknown): their languages
// are inferred from the extensions as the collectors do, on a copy (the mapping is
// read-only).
struct NativeElements {
  StringPool strings;
  Column<ElementRecord> elements;
};
NativeElements native_elements(const MappedNative& map);

// The spectrum of a mapped file whose section table was read, with `elements` (the file's,
// or an identical table the caller compared byte for byte). Checks the tests, the
// elements, the origin and the failing rows; the coverage too unless `check_coverage` is
// false, in which case the caller must check it (Coverage::check_offsets / check_rows)
// before it reads any id: only its first and last offsets are checked here.
Spectrum native_spectrum(const MappedNative& map, NativeElements elements, bool check_coverage = true);

// Checks that the failing rows attached to `spectrum` (the file's section) are the rows of
// its failing tests in its coverage matrix, which must have been checked: counts take
// ef from the rows and ef + ep from the matrix, so rows that disagree would rank
// differently from the same spectrum converted. Throws dlfl::Error("what") (the caller
// names the file). O(failing entries x log(tests of an element)) plus one pass over the
// matrix's ids.
void check_failing_rows(const Spectrum& spectrum);

// Drops the whole pages of `values` (a view of a read-only file mapping, as map_native
// makes) from this process's memory; they are read again from the page cache if used
// again. Never for writable or anonymous memory: its contents would be lost.
void release(const void* data, std::size_t bytes);
template <class T>
void release(std::span<const T> values) {
  release(values.data(), values.size_bytes());
}

}  // namespace dlfl::io::native
