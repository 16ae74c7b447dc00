// TieOrder: how rank() lists the members of a tie, by ascending (file name, first line),
// then element id (Spectrum::tie_order builds it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace dlfl {

// Held as runs of consecutive element ids when the elements come file by file with their
// lines ascending, the way collectors list them: no per-element memory, and rank() needs
// no sort of the elements to follow it. Any other order is held as per-element keys
// (Spectrum::tie_break_keys).
class TieOrder {
 public:
  // Element ids ascending. (No default constructor: `rank(scores, {})` means no keys.)
  static TieOrder by_id() { return TieOrder(std::vector<std::uint64_t>{}); }
  // Ascending key, then id; elements past the end of `keys` have key 0.
  explicit TieOrder(std::vector<std::uint64_t> keys) : keys_(std::move(keys)) {}
  // Run r lists the ids run_first[r], run_first[r] + 1, ... at the positions
  // [run_start[r], run_start[r + 1]); run_start has one entry more than run_first, the
  // element count. Throws dlfl::Error unless the runs list every id below that once.
  TieOrder(std::vector<std::uint32_t> run_first, std::vector<std::size_t> run_start);

  bool has_runs() const noexcept { return !run_first_.empty(); }
  std::span<const std::uint64_t> keys() const noexcept { return keys_; }
  std::span<const std::uint32_t> run_first() const noexcept { return run_first_; }
  std::span<const std::size_t> run_start() const noexcept { return run_start_; }

  // Per element of `n`, a key giving this order (ascending key, then id), for code that
  // compares elements one by one: the keys themselves, or each element's position.
  std::vector<std::uint64_t> element_keys(std::size_t n) const;

 private:
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> run_first_;
  std::vector<std::size_t> run_start_;
};

}  // namespace dlfl
