// The tie order as runs of consecutive element ids (see ElementOrder in ranking_paths.h).
//
// Tie keys are (file rank << 32) | line. Collectors emit a file's elements together, lines
// ascending, so the keys ascend within a few long id runs (one per file, or a few when a
// file's functions were met out of order); the files' ranks (by name) then order the runs.
// A run ends where the key falls or its file changes (runs spanning files whose ranks
// happen to ascend would overlap other runs). Sorting the runs by their first key, and
// checking that consecutive runs do not overlap in key, gives the exact (key, id) order
// of the elements without sorting the elements: one sequential pass over the keys.
#include <algorithm>

#include "ranking_paths.h"

namespace dlfl::detail {
namespace {

// Runs shorter than this on average are not worth it: the radix sort handles them.
constexpr std::size_t kMinAverageRun = 64;

struct Run {
  std::uint64_t first_key, last_key;
  std::uint32_t first, end;  // ids [first, end)
};

}  // namespace

bool tie_runs(std::span<const std::uint64_t> tie_keys, std::size_t n, ElementOrder& order) {
  // Elements past the end of tie_keys have key 0, as in rank()'s comparison path.
  auto key = [&](std::size_t e) { return e < tie_keys.size() ? tie_keys[e] : 0; };
  order = {};
  std::size_t e = 1;
  while (e < n && key(e - 1) <= key(e)) ++e;
  if (e >= n) return true;  // ascending: the identity
  const std::size_t max_runs = std::max<std::size_t>(1, n / kMinAverageRun);
  std::vector<Run> runs;
  std::size_t first = 0;
  for (e = 1; e <= n; ++e) {
    if (e < n && key(e - 1) <= key(e) && (key(e - 1) >> 32) == (key(e) >> 32)) continue;
    if (runs.size() == max_runs) return false;
    runs.push_back({key(first), key(e - 1), static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(e)});
    first = e;
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return a.first_key != b.first_key ? a.first_key < b.first_key : a.first < b.first;
  });
  // Every key of a run must order before every key of the next; an equal key at the
  // boundary is ordered by id, which the earlier run must then have the smaller of.
  for (std::size_t r = 1; r < runs.size(); ++r) {
    const Run &a = runs[r - 1], &b = runs[r];
    if (a.last_key > b.first_key || (a.last_key == b.first_key && a.first > b.first)) return false;
  }
  // Runs that follow each other in id too are one run.
  std::size_t position = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (r == 0 || runs[r].first != runs[r - 1].end) {
      order.run_first.push_back(runs[r].first);
      order.run_start.push_back(position);
    }
    position += runs[r].end - runs[r].first;
  }
  order.run_start.push_back(position);
  return true;
}

}  // namespace dlfl::detail
