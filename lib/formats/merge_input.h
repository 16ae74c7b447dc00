// The inputs of dlfl merge (spectrum_merge.cpp), read so that the merge touches each page
// of a native input once: its checksum and its coverage's structure are checked piece by
// piece as the merge streams through its rows, not in passes of their own before it.
// Internal to dlfl_formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"
#include "native_mapping.h"

namespace dlfl::io::merge {

// The checks of a sparse native input left for the merge to run as it reads the coverage
// in element order: its offsets, then its rows (each range checked before any of its ids
// is used), then the checksum of the whole file. Each step hashes the bytes it checked
// while they are in cache. Every check throws dlfl::Error(file, 0, ...), the checksum
// mismatch first when the file is damaged (the bytes explain the broken structure).
class StreamedChecks {
 public:
  // `checksum` has hashed the file up to the coverage sections (read_inputs did).
  StreamedChecks(native::MappedNative map, std::unique_ptr<native::NativeChecksum> checksum);
  // Elements [0, last): offsets ascend within the id array.
  void offsets_through(std::size_t last);
  // Elements [0, last): offsets, then each element's tests ascending, unique, in range.
  void rows_through(std::size_t last);
  // Every remaining check, then the checksum. The merge's output is committed only after.
  void finish();

 private:
  template <class Check>
  void run(Check&& check);
  native::MappedNative map_;
  std::unique_ptr<native::NativeChecksum> checksum_;
  std::span<const std::uint64_t> offsets_;
  std::span<const std::uint32_t> ids_;
  std::size_t tests_ = 0, elements_ = 0;
  std::size_t offsets_checked_ = 0, rows_checked_ = 0;  // elements [0, n) checked
};

struct Input {
  std::string name;
  Spectrum spectrum;
  std::uint32_t test_base = 0;  // disjoint tests: output id = test_base + local id
  bool mapped = false;          // a native file: its arrays are views of a read-only mapping
  // Set for a sparse native input: its coverage is unchecked until these checks say so.
  std::unique_ptr<StreamedChecks> checks;
};

// Reads every input (any spectrum format). A native input has its header, section table,
// tests, strings, elements, origin and failing rows checked here; its element table and
// strings, when byte for byte the first input's, are compared and hashed in one pass and
// then dropped from memory (the first's stand for them). A dense native input is checked
// in full here. Throws dlfl::Error naming the input.
std::vector<Input> read_inputs(std::span<const std::filesystem::path> paths);

using native::release;  // drops consumed input pages: memory bounded by the output

}  // namespace dlfl::io::merge
