// TieOrder, and the tie order of a spectrum's elements as runs of their ids.
#include "dlfl/tie_order.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "dlfl/error.h"
#include "dlfl/spectrum.h"
#include "ranking_paths.h"

namespace dlfl {

TieOrder::TieOrder(std::vector<std::uint32_t> run_first, std::vector<std::size_t> run_start)
    : run_first_(std::move(run_first)), run_start_(std::move(run_start)) {
  if (run_start_.size() != run_first_.size() + 1 || run_start_.front() != 0)
    throw Error("tie order: " + std::to_string(run_first_.size()) + " runs need " +
                std::to_string(run_first_.size() + 1) + " starts from 0, got " + std::to_string(run_start_.size()));
  // Every id once: the runs, taken in id order, must tile [0, n).
  std::vector<std::size_t> by_id(run_first_.size());
  std::iota(by_id.begin(), by_id.end(), std::size_t{0});
  std::sort(by_id.begin(), by_id.end(), [&](std::size_t a, std::size_t b) { return run_first_[a] < run_first_[b]; });
  std::size_t next = 0;
  for (const std::size_t r : by_id) {
    if (run_start_[r + 1] <= run_start_[r] || run_first_[r] != next)
      throw Error("tie order: run " + std::to_string(r) + " is empty or does not follow the ids before it");
    next += run_start_[r + 1] - run_start_[r];
  }
  if (next != run_start_.back() || run_start_.back() > std::size_t{0xFFFFFFFF})
    throw Error("tie order: the runs do not list the ids 0.." + std::to_string(run_start_.back()) + " once each");
}

std::vector<std::uint64_t> TieOrder::element_keys(std::size_t n) const {
  if (!has_runs()) {
    std::vector<std::uint64_t> keys(keys_.begin(), keys_.begin() + static_cast<std::ptrdiff_t>(std::min(n, keys_.size())));
    keys.resize(n, 0);  // elements past the end have key 0
    return keys;
  }
  std::vector<std::uint64_t> keys(n, 0);
  for (std::size_t r = 0; r < run_first_.size(); ++r)
    for (std::size_t p = run_start_[r]; p < run_start_[r + 1] && run_first_[r] + (p - run_start_[r]) < n; ++p)
      keys[run_first_[r] + (p - run_start_[r])] = p;
  return keys;
}

TieOrder Spectrum::tie_order() const {
  // Runs of one file with ascending lines, found in one pass over the element records
  // (shared by two threads on large spectra); each run is keyed like tie_break_keys by
  // its file's rank once the files met are ranked by name.
  const std::size_t n = elements_.size();
  const unsigned threads = n >= (std::size_t{1} << 18) ? 2 : 1;
  const std::size_t max_runs = std::max<std::size_t>(1, n / detail::kMinAverageRun);
  struct FileRun {
    StringId file;
    std::uint32_t first_line, last_line, first, end;
  };
  std::vector<std::vector<FileRun>> found(threads);
  std::vector<char> too_many(threads, 0);
  detail::for_each_share(threads, n, [&](unsigned t, std::size_t begin, std::size_t end) {
    std::vector<FileRun>& runs = found[t];
    for (std::size_t i = begin; i < end; ++i) {
      const ElementRecord& e = elements_[i];
      if (i > begin && e.file == runs.back().file && e.first_line >= runs.back().last_line) {
        runs.back().last_line = e.first_line;
        continue;
      }
      if (runs.size() == max_runs) {
        too_many[t] = 1;
        return;
      }
      runs.push_back({e.file, e.first_line, e.first_line, static_cast<std::uint32_t>(i), 0});
      if (runs.size() > 1) runs[runs.size() - 2].end = static_cast<std::uint32_t>(i);
    }
    if (!runs.empty()) runs.back().end = static_cast<std::uint32_t>(end);
  });
  std::size_t total = 0;
  for (unsigned t = 0; t < threads; ++t) total += found[t].size();
  if (std::count(too_many.begin(), too_many.end(), 1) > 0 || total > max_runs) return TieOrder(tie_break_keys());

  // The files met, by id, and each one's rank by name (a table over the string pool, as
  // tie_break_keys uses, would cost a pass over every string: names, functions).
  std::vector<StringId> files;
  for (const auto& runs : found)
    for (const FileRun& r : runs) files.push_back(r.file);
  const std::vector<std::uint32_t> rank_of = rank_files_by_name(files);
  std::vector<detail::TieRun> runs;
  runs.reserve(total);
  for (const auto& part : found)
    for (const FileRun& r : part) {
      const auto at = static_cast<std::size_t>(std::lower_bound(files.begin(), files.end(), r.file) - files.begin());
      const std::uint64_t file = std::uint64_t{rank_of[at]} << 32;
      runs.push_back({file | r.first_line, file | r.last_line, r.first, r.end});
    }
  detail::ElementOrder order;
  if (!detail::order_runs(runs, order)) return TieOrder(tie_break_keys());
  if (order.identity()) return TieOrder::by_id();
  return TieOrder(std::move(order.run_first), std::move(order.run_start));
}

}  // namespace dlfl
