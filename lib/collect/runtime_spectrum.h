// RuntimeSpectrumBuilder: runtime snapshot slots + a probe map -> a line spectrum. The part
// of runtime collection shared by collect_with_runtime() (it runs a gtest binary) and
// collect_from_snapshots() (snapshot files of someone else's run), both in collectors.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dlfl/collect/path_filter.h"
#include "dlfl/collect/collect_result.h"
#include "dlfl/collect/runtime_snapshot.h"
#include "dlfl/probe_map/probe_map.h"
#include "dlfl/spectrum.h"

namespace dlfl::collect {

// One test on its way into the spectrum.
struct RuntimeTestRecord {
  TestCase test;
  std::vector<std::uint32_t> probes;  // reached probe ids, any order, duplicates allowed
  bool skipped = false;               // counted as skipped, left out of the spectrum
};

// The record of one slot, with `outside` (what its process reached outside any test;
// empty when not wanted) added to its probes. An ended slot gets its outcome: passed,
// skipped, failed (DLFL_RT_FAILED), or failed with "the test's end was never reported"
// (DLFL_RT_UNKNOWN), and its duration. A slot still running is failing with
// TestStatus::crashed, no message and no duration: only the caller knows how its process
// ended.
RuntimeTestRecord record_of_slot(RuntimeSlot slot, const std::vector<std::uint32_t>& outside);

// Throws dlfl::Error "SNAPSHOT: ..." naming `probe_map` when the snapshot has more probes
// than the map, or when both ids are known and differ (the code was instrumented in
// another tree or run).
void check_snapshot_fits(const RuntimeSnapshot& snapshot, const std::filesystem::path& snapshot_path,
                         const instrument::ProbeMap& map, const std::filesystem::path& probe_map);

// The elements of a probe map: one per (file, line) of its sites whose file is kept, named
// relative to the map's root, absolute, or by `paths` (then absolute_paths is ignored; an
// empty source_root stands for the map's root), ordered by (file, line), each with the
// function of its first site. Throws dlfl::Error when the filter leaves no file of a map
// that has sites.
class ProbeElements {
 public:
  ProbeElements(const instrument::ProbeMap& map, bool absolute_paths, const std::optional<PathFilterOptions>& paths);

  // Adds the elements to `builder`, which must hold none yet: their ids are 0, 1, ...
  void add_to(SpectrumBuilder& builder) const;
  // Appends the ids of the elements of `probes` (ids past the map are ignored) to `out`.
  void elements_of(std::span<const std::uint32_t> probes, std::vector<std::uint32_t>& out) const;
  std::size_t size() const noexcept { return elements_.size(); }
  // The map's id and the root the element files are named relative to (empty: absolute).
  const SpectrumOrigin& origin() const noexcept { return origin_; }

 private:
  struct Element {
    std::uint32_t file = 0;      // index into file_names_
    std::uint32_t line = 0;
    std::uint32_t function = 0;  // index into functions_
  };
  // Builds the probe -> elements index from (probe, element) pairs sorted and unique.
  void index_probes(std::vector<std::pair<std::uint32_t, std::uint32_t>> sorted);

  std::vector<Element> elements_;
  std::vector<std::string> file_names_;  // the element files, sorted
  std::vector<std::string> functions_;   // the map's
  // Dense index: the elements of probe p are element_of_[first_of_probe_[p] ..
  // first_of_probe_[p + 1]); empty when the ids are too sparse for it.
  std::vector<std::uint32_t> first_of_probe_, element_of_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> probe_elements_;  // else (probe, element), sorted
  SpectrumOrigin origin_;
};

class RuntimeSpectrumBuilder {
 public:
  // Elements: the ProbeElements of the map (which see).
  RuntimeSpectrumBuilder(const instrument::ProbeMap& map, bool absolute_paths,
                         const std::optional<PathFilterOptions>& paths);

  // Tests go into the spectrum in the order they are added; skipped ones are only counted.
  void add(RuntimeTestRecord record);

  // For tests read while their process still runs, whose process-wide (outside) coverage
  // is known only at its end: flush_staged() adds `extra_probes` to every test added since
  // start_staging() (nothing to do when they reach no element) and ends the staging.
  void start_staging();
  bool staging() const noexcept { return staged_first_.has_value(); }
  void flush_staged(std::span<const std::uint32_t> extra_probes);

  // Moves the spectrum into `result` (origin: the probe map's id and the root its element
  // files are named relative to) and sets its stats' tests, failing, crashed,
  // timed_out, skipped, no_coverage and elements; appends a warning listing the failing
  // and one listing the passing tests that cover no element, or, when no test covers
  // one, a single warning that the instrumented code did not run; and one when tests
  // reached probes no line stands for (ids an instrumentation after an edit retired: the
  // program is older than the map). The builder is spent.
  void finish(CollectResult& result);

 private:
  SpectrumBuilder builder_;
  ProbeElements elements_;
  CollectStats stats_;
  struct Uncovered {
    std::size_t test;  // its index in the spectrum
    bool failed;
    std::string name;
  };
  std::vector<Uncovered> without_;  // tests that cover no element (so far: see staging)
  std::vector<std::uint32_t> scratch_;  // the elements of the test being added
  std::optional<std::size_t> staged_first_;  // the first test added since start_staging()
  // The probe ids a line of the map stands for, sorted and unique; and, when they are
  // about as dense as `dlfl instrument` numbers them, a bit per id up to the largest.
  // Both follow the sites the map lists, never the probe count it declares, which may
  // be far larger ('probes 44440014' with no site).
  bool has_site(std::uint32_t probe) const;
  std::vector<std::uint32_t> site_probes_;
  std::vector<bool> site_bits_;
  std::uint32_t declared_probes_ = 0;                 // the map's probe count
  std::vector<std::uint32_t> siteless_reached_;       // ids below it that no line stands for, as reached
  std::size_t siteless_unique_ = 0;                   // its size when last made sorted and unique
  void unique_siteless();
};

}  // namespace dlfl::collect
