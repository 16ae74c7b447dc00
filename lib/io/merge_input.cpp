// The inputs of dlfl merge, each native page read once (see merge_input.h).
#include "merge_input.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "dlfl/error.h"
#include "dlfl/io/spectrum_formats.h"

namespace dlfl::io::merge {
namespace {

namespace fs = std::filesystem;
using namespace native;

// Compares the string pool and element table of `map` with `first`'s, hashing and dropping
// each piece of `map` as it goes: when equal, the first's stand for them and these pages
// are never read again. False at the first difference (the rest is hashed later).
bool same_table_hashed(const MappedNative& map, const MappedNative& first, NativeChecksum& checksum) {
  constexpr std::size_t kPiece = std::size_t{1} << 20;  // stays in cache between compare and hash
  for (const SectionId id : {string_blob, string_offsets, elements})
    if (map.sections[id]->size != first.sections[id]->size) return false;
  for (const SectionId id : {string_blob, string_offsets, elements}) {
    const SectionEntry& mine = *map.sections[id];
    const char* theirs = first.data + first.sections[id]->offset;
    for (std::uint64_t at = 0; at < mine.size; at += kPiece) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kPiece, mine.size - at));
      if (std::memcmp(map.data + mine.offset + at, theirs + at, n) != 0) return false;
      checksum.hash_through(mine.offset + at + n);
      release(map.data + mine.offset + at, n);
    }
  }
  return true;
}

}  // namespace

StreamedChecks::StreamedChecks(MappedNative map, std::unique_ptr<NativeChecksum> checksum)
    : map_(std::move(map)),
      checksum_(std::move(checksum)),
      offsets_(map_.view<std::uint64_t>(coverage_offsets)),
      ids_(map_.view<std::uint32_t>(coverage_indices)),
      tests_(map_.view<NativeTestRecord>(tests).size()),
      elements_(offsets_.empty() ? 0 : offsets_.size() - 1) {}

template <class Check>
void StreamedChecks::run(Check&& check) {
  try {
    check();
  } catch (const Error& e) {
    checksum_->verify();  // a damaged file: the damage explains the broken structure
    throw Error(map_.file, 0, e.what());
  }
}

void StreamedChecks::offsets_through(std::size_t last) {
  last = std::min(last, elements_);
  if (last <= offsets_checked_) return;
  run([&] {
    Coverage::check_offsets(offsets_, ids_.size(), offsets_checked_, last);
    checksum_->hash_through(map_.sections[coverage_offsets]->offset + (last + 1) * sizeof(std::uint64_t));
  });
  offsets_checked_ = last;
}

void StreamedChecks::rows_through(std::size_t last) {
  last = std::min(last, elements_);
  if (last <= rows_checked_) return;
  offsets_through(elements_);  // in file order: the offsets section comes before the ids
  run([&] {
    Coverage::check_rows(tests_, offsets_, ids_, rows_checked_, last);
    checksum_->hash_through(map_.sections[coverage_indices]->offset + offsets_[last] * sizeof(std::uint32_t));
  });
  rows_checked_ = last;
}

void StreamedChecks::finish() {
  rows_through(elements_);
  checksum_->verify();
}

std::vector<Input> read_inputs(std::span<const fs::path> paths) {
  std::vector<Input> in;
  in.reserve(paths.size());
  // The first input when native: its string pool and elements stand for identical ones.
  std::optional<MappedNative> first;
  std::optional<NativeElements> first_elements;
  for (const auto& path : paths) {
    if (detect_spectrum_format(path) != SpectrumFormat::native) {
      in.push_back({path.string(), read_spectrum(path), 0, false, nullptr});
      continue;
    }
    MappedNative map = map_native(path);
    auto checksum = std::make_unique<NativeChecksum>(map);
    try {
      read_section_table(map);
      const bool same = first && same_table_hashed(map, *first, *checksum);
      if (in.empty()) first = map, first_elements = native_elements(map);
      // Tests and their text: small, read now; the coverage follows them.
      checksum->hash_through(map.sections[coverage_offsets]->offset);
      const bool dense = map.dense();
      Spectrum spectrum =
          native_spectrum(map, same || in.empty() ? *first_elements : native_elements(map), /*check_coverage=*/dense);
      if (dense) {
        // Read out of element order by nothing else: checked in full now, then dropped.
        checksum->verify();
        release(map.data, map.size);
        in.push_back({map.file, std::move(spectrum), 0, true, nullptr});
      } else {
        in.push_back({map.file, std::move(spectrum), 0, true,
                      std::make_unique<StreamedChecks>(std::move(map), std::move(checksum))});
      }
    } catch (const Error&) {
      checksum->verify();  // a damaged file is reported as such, whatever broke on the way
      throw;
    }
  }
  return in;
}

}  // namespace dlfl::io::merge
