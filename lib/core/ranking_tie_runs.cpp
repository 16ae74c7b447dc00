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

bool tie_runs(std::span<const std::uint64_t> tie_keys, std::size_t n, ElementOrder& order) {
  // Elements past the end of tie_keys have key 0, as in rank()'s comparison path: a run
  // of their own (or the end of the last run when the keys are all 0).
  const std::uint64_t* key = tie_keys.data();
  const std::size_t keyed = std::min(n, tie_keys.size());
  order = {};
  std::size_t e = 1;
  while (e < keyed && key[e - 1] <= key[e]) ++e;
  if (e >= keyed && (keyed == n || keyed == 0 || key[keyed - 1] == 0)) return true;  // ascending: the identity
  const std::size_t max_runs = std::max<std::size_t>(1, n / kMinAverageRun);
  std::vector<TieRun> runs;
  auto add_run = [&](std::size_t first, std::size_t end, std::uint64_t first_key, std::uint64_t last_key) {
    if (runs.size() == max_runs) return false;
    runs.push_back({first_key, last_key, static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(end)});
    return true;
  };
  std::size_t first = 0;
  for (e = 1; e < keyed; ++e) {
    // A run ends where the key falls or the file (the key's high half) changes.
    if (key[e - 1] <= key[e] && (key[e - 1] ^ key[e]) >> 32 == 0) continue;
    if (!add_run(first, e, key[first], key[e - 1])) return false;
    first = e;
  }
  if (keyed < n) {
    if (keyed > first && !add_run(first, keyed, key[first], key[keyed - 1])) return false;
    if (!add_run(keyed, n, 0, 0)) return false;
  } else if (!add_run(first, n, key[first], key[n - 1])) {
    return false;
  }
  return order_runs(runs, order);
}

bool order_runs(std::vector<TieRun>& runs, ElementOrder& order) {
  order = {};
  std::sort(runs.begin(), runs.end(), [](const TieRun& a, const TieRun& b) {
    return a.first_key != b.first_key ? a.first_key < b.first_key : a.first < b.first;
  });
  // Every key of a run must order before every key of the next; an equal key at the
  // boundary is ordered by id, which the earlier run must then have the smaller of.
  for (std::size_t r = 1; r < runs.size(); ++r) {
    const TieRun &a = runs[r - 1], &b = runs[r];
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
