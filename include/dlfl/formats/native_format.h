// dlfl's native spectrum file (`.dlfl`): a versioned binary image read by memory-mapping.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string_view>

#include "dlfl/spectrum.h"

namespace dlfl::io {

// Layout, version 2 (version 1 = sections 1-8 only; still read). All integers little-endian (big-endian hosts are refused at compile
// time); every section starts at an 8-byte aligned offset, zero padding in between.
//
//   offset 0   header, 32 bytes
//                char[8] magic "DLFLSPEC"
//                u32     version (kNativeVersion)
//                u32     section count S
//                u64     file size in bytes (detects truncation)
//                u64     checksum: XXH3_64bits (xxHash) of every byte except the magic
//                        and the checksum itself, i.e. of bytes [8, 24) followed by
//                        bytes [32, file size)
//   offset 32  section table: S entries of 32 bytes
//                u32 id, u32 item size in bytes, u64 offset, u64 size in bytes, u64 items
//   then the sections (ids):
//     1 string blob        char              StringPool bytes
//     2 string offsets     u64 × (n + 1)     StringPool offsets (string 0 = "")
//     3 elements           ElementRecord     24-byte records, written raw; byte 21 = Language
//                          (0 = unknown in files older than languages: inferred on read)
//     4 tests              NativeTestRecord  56-byte records
//     5 test text          char              test names and messages
//     6 coverage offsets   u64 × (elements + 1) element-major (Coverage) offsets
//     7 coverage test ids  u32 × nnz         tests covering each element, ascending
//     8 coverage bits      u64 × elements × ceil(tests/64)  dense form (Coverage)
//     9 source root       char              SpectrumOrigin::source_root (may be empty)
//    10 probe map id      u64 × 0 or 1      SpectrumOrigin::probe_map_id (none = 0)
//    11 failing tests     u32 × F           the tests with failure weight > 0, ascending
//    12 failing offsets   u64 × (F + 1)     row i = failing elements [offsets[i], offsets[i+1])
//    13 failing elements  u32               the elements each failing test covers, ascending
//   A sparse coverage leaves section 8 empty; a dense one leaves 6 and 7 empty.
//   Sections 11-13 (FailingCoverage, test-major) repeat the failing tests' part of the
//   matrix, ~F/tests of its size, so that binary-outcome counts need not read the rest.
// Readers ignore sections with ids they do not know, so later versions can add some
// without breaking older readers; a changed meaning bumps the version.
inline constexpr std::string_view kNativeMagic{"DLFLSPEC", 8};
inline constexpr std::uint32_t kNativeVersion = 2;

// A test as stored: text ranges point into the test text section.
struct NativeTestRecord {
  std::uint64_t name_offset = 0;
  std::uint64_t name_size = 0;
  std::uint64_t message_offset = 0;
  std::uint64_t message_size = 0;
  double failure_weight = 0.0;
  std::uint64_t runtime_ns = 0;
  std::uint8_t status = 0;  // TestStatus
  std::uint8_t reserved[7] = {0, 0, 0, 0, 0, 0, 0};
};
static_assert(sizeof(NativeTestRecord) == 56);

struct NativeReadOptions {
  // The checksum is a transit check (damaged bytes); skipping it saves one pass over the
  // file. The structure is validated on every read regardless (ids in range, offsets
  // monotone and bounded, no stray tail bits, string ids in the pool), so neither a
  // damaged nor a wrongly written file can cause out-of-bounds reads later.
  // (dlfl merge does not read its inputs this way: it checks them piece by piece as it
  // merges them, so that each page is read once; see lib/formats/merge_input.h.)
  bool verify_checksum = true;
};

// Maps the file (mmap PROT_READ, MAP_PRIVATE) and returns a Spectrum whose string pool,
// element table and coverage arrays are views into the mapping (Column::is_view()); the
// mapping lives until the last of those views is gone. Only the test list is copied; the
// origin and the stored failing coverage (version 2) are attached to the spectrum.
// Throws dlfl::Error(path, 0, "...") for a file that cannot be read, is truncated, has a
// bad magic, an unsupported version, a section out of bounds, a checksum mismatch or a
// broken structure (even under a valid checksum).
Spectrum read_native(const std::filesystem::path& path, const NativeReadOptions& options = {});

// Writes `spectrum` atomically (AtomicFile), its failing coverage included (built in one
// pass over the matrix when not attached). Throws dlfl::Error(path, 0, ...) on failure.
void write_native(const Spectrum& spectrum, const std::filesystem::path& path);
// Streams the file image to `out`, which must be seekable (the checksum is written into
// the header last); throws dlfl::Error when the stream fails.
void write_native(const Spectrum& spectrum, std::ostream& out);

// True when the file exists and starts with kNativeMagic (for format detection).
bool has_native_magic(const std::filesystem::path& path) noexcept;

}  // namespace dlfl::io
