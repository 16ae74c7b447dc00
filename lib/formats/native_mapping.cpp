// A mapped native spectrum file and the checked steps from bytes to Spectrum (see
// native_mapping.h).
#include "native_mapping.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <new>
#include <system_error>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/files/text_file.h"

namespace dlfl::io::native {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw Error(file, 0, what);
}

}  // namespace

MappedNative map_native(const fs::path& path) {
  MappedNative map;
  map.file = path.string();
  const std::string& file = map.file;
  {
    const InputFile input(path);  // a FIFO or device is refused before anything reads it
    const int fd = input.fd();
    map.size = input.size();
    if (map.size < kHeaderSize) {
      // Too short to map usefully; still tell a foreign file from a truncated one.
      char head[kHeaderSize];
      const ssize_t n = ::pread(fd, head, map.size, 0);
      const std::size_t got = n > 0 ? static_cast<std::size_t>(n) : 0;
      const std::size_t compare = std::min<std::size_t>(got, kNativeMagic.size());
      if (std::string_view(head, compare) != kNativeMagic.substr(0, compare))
        fail(file, "not a dlfl native spectrum (bad magic)");
      fail(file, "truncated: " + std::to_string(map.size) + " bytes, shorter than the " +
           std::to_string(kHeaderSize) + "-byte header");
    }
    void* base = ::mmap(nullptr, map.size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int err = errno;
    if (base == MAP_FAILED) fail(file, "cannot map: " + std::system_category().message(err));
    map.data = static_cast<const char*>(base);
    const std::size_t size = map.size;
    map.keeper = std::shared_ptr<const void>(base, [size](const void* p) {
      ::munmap(const_cast<void*>(p), size);
    });
  }  // the mapping keeps the file open

  FileHeader& header = map.header;
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
  return map;
}

void read_section_table(MappedNative& map) {
  const std::string& file = map.file;
  const FileHeader& header = map.header;
  if (header.section_count > (map.size - kHeaderSize) / kEntrySize)
    fail(file, "section table out of bounds (" + std::to_string(header.section_count) + " sections)");
  const std::uint64_t table_end = kHeaderSize + std::uint64_t{header.section_count} * kEntrySize;
  auto& found = map.sections;
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
}

// ---------------------------------------------------------------------------------------

NativeChecksum::NativeChecksum(const MappedNative& map)
    : file_(map.file), data_(map.data), size_(map.size), expected_(map.header.checksum), position_(kHeaderSize) {
  state_ = XXH3_createState();
  if (state_ == nullptr) throw std::bad_alloc();
  XXH3_64bits_reset(state_);
  // The checksum covers header bytes [8, 24) and everything after the header.
  XXH3_64bits_update(state_, data_ + 8, 16);
}

NativeChecksum::~NativeChecksum() { XXH3_freeState(state_); }

void NativeChecksum::hash_through(std::uint64_t end) {
  end = std::min(end, size_);
  if (end <= position_) return;
  XXH3_64bits_update(state_, data_ + position_, end - position_);
  position_ = end;
}

void NativeChecksum::verify() {
  hash_through(size_);
  if (XXH3_64bits_digest(state_) != expected_) fail(file_, "checksum mismatch: the file is corrupted");
}

// ---------------------------------------------------------------------------------------

NativeElements native_elements(const MappedNative& map) {
  try {
    NativeElements out{StringPool(map.view<char>(string_blob), map.view<std::uint64_t>(string_offsets), map.keeper),
                       Column<ElementRecord>(map.view<ElementRecord>(elements), map.keeper)};
    const auto records = out.elements.span();
    const bool ids_in_pool = std::all_of(records.begin(), records.end(),
                                         [&](const ElementRecord& r) { return r.file < out.strings.size(); });
    if (ids_in_pool && languages_to_infer(records, out.strings)) {
      std::vector<ElementRecord> inferred(records.begin(), records.end());
      infer_languages(inferred, out.strings);
      out.elements = Column<ElementRecord>(std::move(inferred));
    }
    return out;
  } catch (const Error& e) {
    throw Error(map.file, 0, e.message());
  }
}

// The structural validation of a native file, run on every read whatever the checksum
// says: a checksum proves the bytes were not damaged in transit, not that the writer was
// correct (or honest), and every later stage indexes arrays with these ids unchecked.
// One linear pass over each section, no allocation beyond the test list:
//  - tests: text ranges inside the test text, status known (here);
//  - string pool: offsets start at the empty string, ascend, stay inside the blob
//    (StringPool's constructor, in native_elements);
//  - elements: string ids in the pool, kind known, failure weights in [0, 1] (Spectrum's);
//  - coverage: offsets start at 0, ascend and end at the id count; test ids ascending,
//    unique and below the test count; dense rows of the right size with no bit past the
//    last test (Coverage's, validate = check_coverage);
//  - failing rows (FailingCoverage's), origin (here).
// A new section adds its checks here, before the model is built from it.
Spectrum native_spectrum(const MappedNative& map, NativeElements elements, bool check_coverage) {
  const std::string& file = map.file;
  const auto tests = map.view<NativeTestRecord>(native::tests);
  const auto text = map.view<char>(test_text);
  const auto offsets = map.view<std::uint64_t>(coverage_offsets);
  const auto ids = map.view<std::uint32_t>(coverage_indices);
  const auto bits = map.view<std::uint64_t>(coverage_bits);
  const std::size_t element_count = elements.elements.size();
  const bool dense = offsets.empty();  // the dense form stores no offsets
  if (!dense && offsets.size() != element_count + 1)
    fail(file, "coverage has " + std::to_string(offsets.size()) + " offsets for " + std::to_string(element_count) +
         " elements");
  if (dense ? !ids.empty() : !bits.empty()) fail(file, "coverage is stored both sparse and dense");

  std::vector<TestCase> test_list;
  test_list.reserve(tests.size());
  for (std::size_t t = 0; t < tests.size(); ++t) {
    const auto& r = tests[t];
    auto in_text = [&](std::uint64_t offset, std::uint64_t size) {
      return offset <= text.size() && size <= text.size() - offset;
    };
    if (!in_text(r.name_offset, r.name_size) || !in_text(r.message_offset, r.message_size))
      fail(file, "test " + std::to_string(t) + ": text out of bounds");
    if (r.status > static_cast<std::uint8_t>(TestStatus::flaky))
      fail(file, "test " + std::to_string(t) + ": unknown status " + std::to_string(r.status));
    TestCase test;
    test.name.assign(text.data() + r.name_offset, r.name_size);
    test.message.assign(text.data() + r.message_offset, r.message_size);
    test.failure_weight = r.failure_weight;
    test.status = static_cast<TestStatus>(r.status);
    test.runtime_ns = r.runtime_ns;
    test_list.push_back(std::move(test));
  }

  const auto root = map.view<char>(source_root);
  const auto map_id = map.view<std::uint64_t>(probe_map_id);
  auto& found = map.sections;
  const bool has_failing = found[failing_tests] || found[failing_offsets] || found[failing_elements];
  if (has_failing && !(found[failing_tests] && found[failing_offsets] && found[failing_elements]))
    fail(file, "the failing-coverage sections are incomplete");
  if (map_id.size() > 1) fail(file, "section 'probe map id' holds more than one id");

  // The model's constructors hold the remaining checks, so a file cannot build anything
  // that code built in memory could not; their messages get the file name in front.
  try {
    Coverage coverage = dense ? Coverage::dense(tests.size(), element_count, Column<std::uint64_t>(bits, map.keeper),
                                                check_coverage)
                              : Coverage(tests.size(), Column<std::uint64_t>(offsets, map.keeper),
                                         Column<std::uint32_t>(ids, map.keeper), check_coverage);
    Spectrum spectrum(std::move(elements.strings), std::move(elements.elements), std::move(test_list),
                      std::move(coverage));
    spectrum.set_origin({std::string(root.begin(), root.end()), map_id.empty() ? 0 : map_id[0]});
    // Always checked: the counts index element arrays with these ids.
    if (has_failing)
      spectrum.attach_failing_coverage(
          FailingCoverage(spectrum.test_count(), spectrum.element_count(),
                          Column<std::uint32_t>(map.view<std::uint32_t>(failing_tests), map.keeper),
                          Column<std::uint64_t>(map.view<std::uint64_t>(failing_offsets), map.keeper),
                          Column<std::uint32_t>(map.view<std::uint32_t>(failing_elements), map.keeper)));
    if (has_failing && check_coverage) check_failing_rows(spectrum);
    // Counts read the failing rows only with binary outcomes (counts.cpp); otherwise the
    // pages the check above touched would stay in memory for nothing (12 MB of a 1M x 10k
    // spectrum with 3% failing tests: the peak-memory target of benchmarks/README.md).
    if (has_failing && !spectrum.binary_outcomes()) release(map.view<std::uint32_t>(failing_elements));
    return spectrum;
  } catch (const Error& e) {
    throw Error(file, 0, e.message());
  }
}

void check_failing_rows(const Spectrum& spectrum) {
  const FailingCoverage* failing = spectrum.failing_coverage();
  if (failing == nullptr) return;
  const Coverage& coverage = spectrum.coverage();
  // Each entry is a pair of the matrix: one lookup (a binary search in the element's
  // tests, or a bit) per entry of the failing rows, a few percent of the matrix.
  std::uint64_t pairs = 0;
  for (std::size_t i = 0; i < failing->size(); ++i) {
    const std::uint32_t test = failing->tests()[i];
    for (const std::uint32_t e : failing->row(i))
      if (!coverage.covers(test, e))
        throw Error("the failing rows give test " + std::to_string(test) + " element " + std::to_string(e) +
                    ", which the coverage matrix does not");
    pairs += failing->row(i).size();
  }
  // And none missing: the matrix holds as many pairs of failing tests. Its ids counted
  // against a bitmap of the failing tests, without a branch per id.
  std::vector<std::uint64_t> is_failing(coverage.words_per_element(), 0);
  for (const std::uint32_t t : failing->tests()) is_failing[t / 64] |= std::uint64_t{1} << (t % 64);
  std::uint64_t in_matrix = 0;
  if (coverage.is_dense()) {
    const auto bits = coverage.all_bits();
    const std::size_t words = is_failing.size();
    for (std::size_t w = 0; w < bits.size(); ++w)
      in_matrix += static_cast<std::uint64_t>(std::popcount(bits[w] & is_failing[w % words]));
  } else {
    for (const std::uint32_t t : coverage.test_ids()) in_matrix += (is_failing[t / 64] >> (t % 64)) & 1;
  }
  if (in_matrix != pairs)
    throw Error("the failing rows hold " + std::to_string(pairs) + " covered pairs, the coverage matrix " +
                std::to_string(in_matrix) + " for the failing tests");
}

void release(const void* data, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace dlfl::io::native
