// dlfl's native spectrum file: streamed out section by section, read back by mmap.
#include "dlfl/io/native_format.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/io/atomic_file.h"
#include "native_layout.h"

namespace dlfl::io {
namespace fs = std::filesystem;

// The file is the in-memory image of its arrays; a big-endian host would need byte
// swapping on every access, which defeats mapping.
static_assert(std::endian::native == std::endian::little,
              "dlfl's native spectrum format requires a little-endian host");

using namespace native;

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw Error(file, 0, what);
}

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
// Reading

namespace {

struct Mapping {
  const char* data = nullptr;
  std::size_t size = 0;
  std::shared_ptr<const void> keeper;  // munmap when the last view is gone
};

// A section's items in place: the mapping is page-aligned and the section 8-aligned, so
// the pointer is suitably aligned for every item type used here.
template <class T>
std::span<const T> section_view(const Mapping& map, const SectionEntry& e) {
  return {reinterpret_cast<const T*>(map.data + e.offset), static_cast<std::size_t>(e.items)};
}

// The known sections of a mapped file, as views into the mapping.
struct NativeSections {
  std::span<const char> blob;
  std::span<const std::uint64_t> string_offsets;
  std::span<const ElementRecord> elements;
  std::span<const NativeTestRecord> tests;
  std::span<const char> test_text;
  std::span<const std::uint64_t> coverage_offsets;  // empty for dense coverage
  std::span<const std::uint32_t> coverage_test_ids;
  std::span<const std::uint64_t> coverage_bits;
};

// The structural validation of a native file, run on every read whatever the checksum
// says: a checksum proves the bytes were not damaged in transit, not that the writer was
// correct (or honest), and every later stage indexes arrays with these ids unchecked.
// One linear pass over each section, no allocation beyond the test list:
//  - tests: text ranges inside the test text, status known (here);
//  - string pool: offsets start at the empty string, ascend, stay inside the blob
//    (StringPool's constructor);
//  - elements: string ids in the pool, kind known, failure weights in [0, 1] (Spectrum's);
//  - coverage: offsets start at 0, ascend and end at the id count; test ids ascending,
//    unique and below the test count; dense rows of the right size with no bit past the
//    last test (Coverage's, validate = true).
// A new section adds its checks here, before the model is built from it.
Spectrum validated_spectrum(const NativeSections& s, const std::shared_ptr<const void>& keeper,
                            const std::string& file) {
  const bool dense = s.coverage_offsets.empty();  // the dense form stores no offsets
  if (!dense && s.coverage_offsets.size() != s.elements.size() + 1)
    fail(file, "coverage has " + std::to_string(s.coverage_offsets.size()) + " offsets for " +
         std::to_string(s.elements.size()) + " elements");
  if (dense ? !s.coverage_test_ids.empty() : !s.coverage_bits.empty())
    fail(file, "coverage is stored both sparse and dense");

  std::vector<TestCase> test_list;
  test_list.reserve(s.tests.size());
  for (std::size_t t = 0; t < s.tests.size(); ++t) {
    const auto& r = s.tests[t];
    auto in_text = [&](std::uint64_t offset, std::uint64_t size) {
      return offset <= s.test_text.size() && size <= s.test_text.size() - offset;
    };
    if (!in_text(r.name_offset, r.name_size) || !in_text(r.message_offset, r.message_size))
      fail(file, "test " + std::to_string(t) + ": text out of bounds");
    if (r.status > static_cast<std::uint8_t>(TestStatus::flaky))
      fail(file, "test " + std::to_string(t) + ": unknown status " + std::to_string(r.status));
    TestCase test;
    test.name.assign(s.test_text.data() + r.name_offset, r.name_size);
    test.message.assign(s.test_text.data() + r.message_offset, r.message_size);
    test.failure_weight = r.failure_weight;
    test.status = static_cast<TestStatus>(r.status);
    test.runtime_ns = r.runtime_ns;
    test_list.push_back(std::move(test));
  }

  // The model's constructors hold the remaining checks, so a file cannot build anything
  // that code built in memory could not; their messages get the file name in front.
  try {
    StringPool pool(s.blob, s.string_offsets, keeper);
    Column<ElementRecord> elements(s.elements, keeper);
    // Files written before elements carried a language hold 0 (unknown) there: infer it
    // from the extensions as the collectors do, on a copy (the mapping is read-only).
    const bool ids_in_pool = std::all_of(s.elements.begin(), s.elements.end(),
                                         [&](const ElementRecord& r) { return r.file < pool.size(); });
    if (ids_in_pool && std::any_of(s.elements.begin(), s.elements.end(), [](const ElementRecord& r) {
          return r.language == Language::unknown;
        })) {
      std::vector<ElementRecord> inferred(s.elements.begin(), s.elements.end());
      infer_languages(inferred, pool);
      elements = Column<ElementRecord>(std::move(inferred));
    }
    Coverage coverage =
        dense ? Coverage::dense(s.tests.size(), s.elements.size(), Column<std::uint64_t>(s.coverage_bits, keeper))
              : Coverage(s.tests.size(), Column<std::uint64_t>(s.coverage_offsets, keeper),
                         Column<std::uint32_t>(s.coverage_test_ids, keeper));
    return Spectrum(std::move(pool), std::move(elements), std::move(test_list),
                    std::move(coverage));
  } catch (const Error& e) {
    throw Error(file, 0, e.what());
  }
}

}  // namespace

bool has_native_magic(const fs::path& path) noexcept {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char magic[8];
  const ssize_t n = ::pread(fd, magic, sizeof magic, 0);
  ::close(fd);
  return n == static_cast<ssize_t>(sizeof magic) &&
         std::string_view(magic, sizeof magic) == kNativeMagic;
}

Spectrum read_native(const fs::path& path, const NativeReadOptions& options) {
  const std::string file = path.string();

  Mapping map;
  {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(file, "cannot read: " + std::system_category().message(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      fail(file, "not a regular file");
    }
    map.size = static_cast<std::size_t>(st.st_size);
    if (map.size < kHeaderSize) {
      // Too short to map usefully; still tell a foreign file from a truncated one.
      char head[kHeaderSize];
      const ssize_t n = ::pread(fd, head, map.size, 0);
      ::close(fd);
      const std::size_t got = n > 0 ? static_cast<std::size_t>(n) : 0;
      const std::size_t compare = std::min<std::size_t>(got, kNativeMagic.size());
      if (std::string_view(head, compare) != kNativeMagic.substr(0, compare))
        fail(file, "not a dlfl native spectrum (bad magic)");
      fail(file, "truncated: " + std::to_string(map.size) + " bytes, shorter than the " +
           std::to_string(kHeaderSize) + "-byte header");
    }
    void* base = ::mmap(nullptr, map.size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int err = errno;
    ::close(fd);  // the mapping keeps the file open
    if (base == MAP_FAILED) fail(file, "cannot map: " + std::system_category().message(err));
    map.data = static_cast<const char*>(base);
    const std::size_t size = map.size;
    map.keeper = std::shared_ptr<const void>(base, [size](const void* p) {
      ::munmap(const_cast<void*>(p), size);
    });
  }

  FileHeader header;
  std::memcpy(&header, map.data, sizeof header);
  if (std::string_view(header.magic, sizeof header.magic) != kNativeMagic)
    fail(file, "not a dlfl native spectrum (bad magic)");
  if (header.version < 1 || header.version > kNativeVersion)
    fail(file, "unsupported native spectrum version " + std::to_string(header.version) +
         " (this build reads versions 1 to " + std::to_string(kNativeVersion) + ")");
  if (header.file_size > map.size)
    fail(file, "truncated: the header promises " + std::to_string(header.file_size) +
         " bytes, the file has " + std::to_string(map.size));
  if (header.file_size < map.size)
    fail(file, std::to_string(map.size - header.file_size) +
         " unexpected bytes after the end of the spectrum");

  if (options.verify_checksum) {
    XXH3_state_t* state = XXH3_createState();
    if (state == nullptr) throw std::bad_alloc();
    XXH3_64bits_reset(state);
    XXH3_64bits_update(state, map.data + 8, 16);
    XXH3_64bits_update(state, map.data + kHeaderSize, map.size - kHeaderSize);
    const std::uint64_t computed = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    if (computed != header.checksum) fail(file, "checksum mismatch: the file is corrupted");
  }

  // Section table: every entry in bounds, aligned and of the expected item size.
  if (header.section_count > (map.size - kHeaderSize) / kEntrySize)
    fail(file, "section table out of bounds (" + std::to_string(header.section_count) + " sections)");
  const std::uint64_t table_end = kHeaderSize + std::uint64_t{header.section_count} * kEntrySize;
  std::array<std::optional<SectionEntry>, kSectionIds + 1> found;
  for (std::uint32_t i = 0; i < header.section_count; ++i) {
    SectionEntry entry;
    std::memcpy(&entry, map.data + kHeaderSize + i * kEntrySize, sizeof entry);
    if (entry.id == 0 || entry.id > kSectionIds) continue;  // a newer writer's addition
    const std::string name(kSectionNames[entry.id]);
    if (found[entry.id]) fail(file, "section '" + name + "' appears twice");
    if (entry.item_size != kItemSizes[entry.id])
      fail(file, "section '" + name + "' has " + std::to_string(entry.item_size) +
           "-byte items, expected " + std::to_string(kItemSizes[entry.id]));
    if (entry.offset % 8 != 0) fail(file, "section '" + name + "' is not 8-byte aligned");
    if (entry.offset < table_end || entry.offset > map.size || entry.size > map.size - entry.offset)
      fail(file, "section '" + name + "' out of bounds");
    if (entry.items != entry.size / entry.item_size || entry.size % entry.item_size != 0)
      fail(file, "section '" + name + "' size disagrees with its item count");
    found[entry.id] = entry;
  }
  // Version 1 has sections 1-8 only; the later ones are optional (origin unknown, no
  // failing rows: counts then read the whole matrix).
  for (std::uint32_t id = 1; id < kFirstVersion2Section; ++id)
    if (!found[id]) fail(file, "missing section '" + std::string(kSectionNames[id]) + "'");
  auto optional_view = [&]<class T>(SectionId id, T*) {
    return found[id] ? section_view<T>(map, *found[id]) : std::span<const T>();
  };

  const NativeSections sections{
      section_view<char>(map, *found[string_blob]),
      section_view<std::uint64_t>(map, *found[string_offsets]),
      section_view<ElementRecord>(map, *found[elements]),
      section_view<NativeTestRecord>(map, *found[tests]),
      section_view<char>(map, *found[test_text]),
      section_view<std::uint64_t>(map, *found[coverage_offsets]),
      section_view<std::uint32_t>(map, *found[coverage_indices]),
      section_view<std::uint64_t>(map, *found[coverage_bits]),
  };
  Spectrum spectrum = validated_spectrum(sections, map.keeper, file);
  const auto root = optional_view(source_root, static_cast<char*>(nullptr));
  const auto map_id = optional_view(probe_map_id, static_cast<std::uint64_t*>(nullptr));
  const bool has_failing = found[failing_tests] || found[failing_offsets] || found[failing_elements];
  if (has_failing && !(found[failing_tests] && found[failing_offsets] && found[failing_elements]))
    fail(file, "the failing-coverage sections are incomplete");
  if (map_id.size() > 1) fail(file, "section 'probe map id' holds more than one id");
  spectrum.set_origin({std::string(root.begin(), root.end()), map_id.empty() ? 0 : map_id[0]});
  if (has_failing) {
    // Always validated: the counts index element arrays with these ids.
    try {
      spectrum.attach_failing_coverage(FailingCoverage(
          spectrum.test_count(), spectrum.element_count(),
          Column<std::uint32_t>(section_view<std::uint32_t>(map, *found[failing_tests]), map.keeper),
          Column<std::uint64_t>(section_view<std::uint64_t>(map, *found[failing_offsets]), map.keeper),
          Column<std::uint32_t>(section_view<std::uint32_t>(map, *found[failing_elements]), map.keeper)));
    } catch (const Error& e) {
      throw Error(file, 0, e.what());
    }
  }
  // After the checksum and the structural checks, which read the coverage ids again.
  if (options.release_checked_pages) ::madvise(const_cast<char*>(map.data), map.size, MADV_DONTNEED);
  return spectrum;
}

}  // namespace dlfl::io
