// The byte layout of dlfl's native spectrum file, shared by its writer, its reader and
// the streaming merge (see include/dlfl/formats/native_format.h for the format itself).
// Internal to dlfl_formats.
#pragma once

#include <xxhash.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/formats/native_format.h"

namespace dlfl::io::native {

constexpr std::size_t kHeaderSize = 32;
constexpr std::size_t kEntrySize = 32;

enum SectionId : std::uint32_t {
  string_blob = 1,
  string_offsets = 2,
  elements = 3,
  tests = 4,
  test_text = 5,
  coverage_offsets = 6,
  coverage_indices = 7,
  coverage_bits = 8,
  source_root = 9,
  probe_map_id = 10,
  failing_tests = 11,
  failing_offsets = 12,
  failing_elements = 13,
};
constexpr std::uint32_t kSectionIds = 13;
// Sections a version-1 file lacks; a version-2 reader takes them as absent.
constexpr std::uint32_t kFirstVersion2Section = source_root;

constexpr std::array<std::string_view, kSectionIds + 1> kSectionNames = {
    "",          "string blob",  "string offsets", "elements",        "tests",
    "test text", "coverage offsets", "coverage indices", "coverage bits", "source root",
    "probe map id", "failing tests", "failing offsets", "failing elements"};
constexpr std::array<std::uint32_t, kSectionIds + 1> kItemSizes = {
    0, 1, 8, sizeof(ElementRecord), sizeof(NativeTestRecord), 1, 8, 4, 8, 1, 8, 4, 8, 4};

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t section_count;
  std::uint64_t file_size;
  std::uint64_t checksum;
};
static_assert(sizeof(FileHeader) == kHeaderSize);

struct SectionEntry {
  std::uint32_t id;
  std::uint32_t item_size;
  std::uint64_t offset;
  std::uint64_t size;
  std::uint64_t items;
};
static_assert(sizeof(SectionEntry) == kEntrySize);

constexpr std::uint64_t align8(std::uint64_t n) { return (n + 7) & ~std::uint64_t{7}; }

// Items per section id (index 0 unused).
using SectionItems = std::array<std::uint64_t, kSectionIds + 1>;

// Every section of the current version in id order, each 8-aligned after the table.
struct Layout {
  std::array<SectionEntry, kSectionIds> table{};
  FileHeader header{};  // checksum 0 until computed
};
Layout plan_layout(const SectionItems& items);

// Writes a file image section by section to a seekable stream, hashing what it writes,
// and puts the checksum into the header at the end: memory stays at one buffer whatever
// the sections' sizes. Sections must be written in id order, each exactly as big as
// planned; finish() checks that.
class ImageStreamWriter {
 public:
  ImageStreamWriter(std::ostream& out, const SectionItems& items);
  ImageStreamWriter(const ImageStreamWriter&) = delete;
  ImageStreamWriter& operator=(const ImageStreamWriter&) = delete;
  ~ImageStreamWriter();

  // Starts section `id` (pads up to its offset).
  void begin(SectionId id);
  void write(const void* data, std::size_t bytes);
  template <class T>
  void write(std::span<const T> values) {
    write(values.data(), values.size_bytes());
  }
  // A buffer for `count` items of T appended to the current section; valid until the
  // next call. For producers that compute values in place.
  template <class T>
  T* reserve(std::size_t count) {
    return reinterpret_cast<T*>(reserve_bytes(count * sizeof(T)));
  }
  // Flushes, checks every section was written in full, writes the checksum into the
  // header. Throws dlfl::Error when the stream fails or a section's size is off.
  void finish();

 private:
  char* reserve_bytes(std::size_t bytes);
  void flush();
  std::ostream& out_;
  Layout layout_;
  XXH3_state_t* hash_ = nullptr;
  std::uint64_t position_ = 0;  // file bytes produced so far (buffered included)
  int current_ = -1;            // index into layout_.table
  std::vector<char> buffer_;
  std::size_t used_ = 0;
};

// The tests section's records and the text they point into (names, then messages).
struct TestTable {
  std::vector<NativeTestRecord> records;
  std::string text;
};
TestTable test_table(std::span<const TestCase> tests);

}  // namespace dlfl::io::native
