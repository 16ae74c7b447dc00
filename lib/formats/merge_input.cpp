// The inputs of dlfl merge, each native page read once (see merge_input.h).
#include "merge_input.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>

#include "dlfl/error.h"
#include "dlfl/formats/spectrum_formats.h"

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
    throw Error(map_.file, 0, e.message());
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
  // The first input when native: its string pool and elements stand for identical ones.
  std::optional<MappedNative> first;
  std::optional<NativeElements> first_elements;
  auto read_one = [&](const fs::path& path, bool is_first) -> Input {
    if (detect_spectrum_format(path) != SpectrumFormat::native) return {path.string(), read_spectrum(path), 0, false, nullptr};
    MappedNative map = map_native(path);
    auto checksum = std::make_unique<NativeChecksum>(map);
    try {
      read_section_table(map);
      const bool same = !is_first && first && same_table_hashed(map, *first, *checksum);
      if (is_first) first = map, first_elements = native_elements(map);
      // Tests and their text: small, read now; the coverage follows them.
      checksum->hash_through(map.sections[coverage_offsets]->offset);
      const bool dense = map.dense();
      Spectrum spectrum =
          native_spectrum(map, same || is_first ? *first_elements : native_elements(map), /*check_coverage=*/dense);
      if (dense) {
        // Read out of element order by nothing else: checked in full now, then dropped.
        checksum->verify();
        release(map.data, map.size);
        return {map.file, std::move(spectrum), 0, true, nullptr};
      }
      return {map.file, std::move(spectrum), 0, true,
              std::make_unique<StreamedChecks>(std::move(map), std::move(checksum))};
    } catch (const Error&) {
      checksum->verify();  // a damaged file is reported as such, whatever broke on the way
      throw;
    }
  };
  std::vector<std::optional<Input>> read(paths.size());
  if (!paths.empty()) read[0] = read_one(paths[0], true);
  // The others compare their tables with the first's and hash them (the bulk of reading
  // a shard) on two threads. The error reported is the first input's in order that has
  // one; inputs after it are not read any further.
  std::vector<std::exception_ptr> errors(paths.size());
  std::atomic<std::size_t> next{1}, first_error{paths.size()};
  auto read_rest = [&] {
    for (std::size_t i; (i = next++) < paths.size() && i < first_error;) {
      try {
        read[i] = read_one(paths[i], false);
      } catch (...) {
        errors[i] = std::current_exception();
        for (std::size_t seen = first_error; i < seen && !first_error.compare_exchange_weak(seen, i);) {}
      }
    }
  };
  {
    std::optional<std::jthread> helper;
    if (paths.size() > 2) helper.emplace(read_rest);
    read_rest();
  }
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
  std::vector<Input> in;
  in.reserve(paths.size());
  for (auto& i : read) in.push_back(std::move(*i));
  return in;
}

}  // namespace dlfl::io::merge
