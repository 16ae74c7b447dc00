// Runtime snapshot slots + a probe map -> a line spectrum (see runtime_spectrum.h).
#include "runtime_spectrum.h"

#include <algorithm>
#include <utility>

#include "dlfl/error.h"
#include "dlfl_rt/dlfl_rt.h"
#include "dlfl_rt/dlfl_rt_file.h"

namespace dlfl::collect {
namespace {

namespace fs = std::filesystem;

// Per probe map file, its element file name; nullopt when the path filter leaves it out.
std::vector<std::optional<std::string>> element_files(const instrument::ProbeMap& map, bool absolute_paths,
                                                      const std::optional<PathFilterOptions>& paths) {
  std::optional<PathFilter> filter;
  if (paths) {
    PathFilterOptions kept = *paths;
    if (kept.source_root.empty()) kept.source_root = map.root;
    filter.emplace(std::move(kept));
  }
  std::vector<std::optional<std::string>> names;
  for (const auto& file : map.files) {
    const fs::path absolute = (fs::path(map.root) / file).lexically_normal();
    if (filter)
      names.push_back(filter->map(absolute.string()));
    else
      names.push_back(absolute_paths ? absolute.string() : file);
  }
  return names;
}

// "A, B, C" and " and N more" past the limit, as collect() words it.
std::string name_list(const std::vector<std::string>& names, std::size_t limit = 10) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > limit) out += " and " + std::to_string(names.size() - limit) + " more";
  return out;
}

// "1 failing test", "3 failing tests".
std::string counted(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

RuntimeTestRecord record_of_slot(RuntimeSlot slot, const std::vector<std::uint32_t>& outside) {
  RuntimeTestRecord rec;
  rec.probes = std::move(slot.probes);
  rec.probes.insert(rec.probes.end(), outside.begin(), outside.end());
  if (slot.state != DLFL_RT_SLOT_ENDED) {
    rec.test = TestCase::fail(std::move(slot.name), TestStatus::crashed);
    return rec;
  }
  const bool failed = slot.outcome != DLFL_RT_PASSED && slot.outcome != DLFL_RT_SKIPPED;
  rec.test = failed ? TestCase::fail(std::move(slot.name)) : TestCase::pass(std::move(slot.name));
  rec.test.runtime_ns = slot.end_ns >= slot.begin_ns ? slot.end_ns - slot.begin_ns : 0;
  rec.skipped = slot.outcome == DLFL_RT_SKIPPED;
  if (slot.outcome == DLFL_RT_UNKNOWN) rec.test.message = "the test's end was never reported";
  return rec;
}

void check_snapshot_fits(const RuntimeSnapshot& snapshot, const fs::path& snapshot_path,
                         const instrument::ProbeMap& map, const fs::path& probe_map) {
  // Id 0 is "unknown" on either side (hand-written maps, runtimes fed by other tools).
  if (snapshot.map_id && map.id && snapshot.map_id != map.id)
    throw Error(snapshot_path.string(), 0,
                "was written by code instrumented with another probe map than " + probe_map.string() +
                    " (the ids differ): give the dlfl-probes.map of the `dlfl instrument` tree it was built from");
  if (snapshot.probe_count > map.probe_count)
    throw Error(snapshot_path.string(), 0,
                "has " + std::to_string(snapshot.probe_count) + " probes, more than the " +
                    std::to_string(map.probe_count) + " of the probe map " + probe_map.string());
}

ProbeElements::ProbeElements(const instrument::ProbeMap& map, bool absolute_paths,
                             const std::optional<PathFilterOptions>& paths) {
  origin_.probe_map_id = map.id;
  if (paths)
    origin_.source_root = paths->source_root.empty() ? map.root : PathFilter(*paths).source_root().string();
  else if (!absolute_paths)
    origin_.source_root = map.root;
  const auto files = element_files(map, absolute_paths, paths);
  // Elements are ordered by (file name, line). Sorting 64-bit keys (the file's rank among
  // the distinct names, line) instead of (string, line) pairs in a std::map: a
  // framework-sized map has ~10^6 sites in a few hundred files.
  auto& names = file_names_;
  for (const auto& f : files)
    if (f) names.push_back(*f);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  constexpr std::uint32_t kLeftOut = UINT32_MAX;
  std::vector<std::uint32_t> rank(files.size(), kLeftOut);
  for (std::size_t i = 0; i < files.size(); ++i)
    if (files[i])
      rank[i] = static_cast<std::uint32_t>(std::lower_bound(names.begin(), names.end(), *files[i]) - names.begin());
  // (key, site index) of the kept sites; with the index in the sort the first site of a
  // line comes first and gives the element its function.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
  keyed.reserve(map.sites.size());
  for (std::size_t i = 0; i < map.sites.size(); ++i) {
    const auto& s = map.sites[i];
    if (s.file < rank.size() && rank[s.file] != kLeftOut)
      keyed.emplace_back(std::uint64_t{rank[s.file]} << 32 | s.line, static_cast<std::uint32_t>(i));
  }
  if (keyed.empty() && !map.sites.empty())
    throw Error("none of the " + std::to_string(map.files.size()) + " files of the probe map under " + map.root +
                " is left after the source root and the excludes: check --source-root and --exclude");
  std::sort(keyed.begin(), keyed.end());
  // (probe, element) pairs: memory follows the sites the map lists, never the probe count
  // or the probe ids it declares ('probes 4294967295' in a few bytes).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> probe_elements;
  probe_elements.reserve(keyed.size());
  for (std::size_t k = 0; k < keyed.size(); ++k) {
    const instrument::ProbeSite& site = map.sites[keyed[k].second];
    if (k == 0 || keyed[k].first != keyed[k - 1].first)
      elements_.push_back({rank[site.file], site.line, site.function});
    probe_elements.emplace_back(site.probe, static_cast<std::uint32_t>(elements_.size() - 1));
  }
  functions_ = map.functions;
  std::sort(probe_elements.begin(), probe_elements.end());
  probe_elements.erase(std::unique(probe_elements.begin(), probe_elements.end()), probe_elements.end());
  index_probes(std::move(probe_elements));
}

void ProbeElements::index_probes(std::vector<std::pair<std::uint32_t, std::uint32_t>> sorted) {
  // A table indexed by probe id (4 bytes per id up to the largest) when the ids are about
  // as many as the sites, as `dlfl instrument` numbers them: one load per reached probe
  // instead of a binary search (10^6 hits per 10^4 tests). Ids spread far beyond the sites
  // (a hand-written map) keep the sorted pairs.
  const std::uint64_t largest = sorted.empty() ? 0 : sorted.back().first;
  if (largest < 4 * std::uint64_t{sorted.size()} + 65536) {
    first_of_probe_.assign(largest + 2, 0);
    for (const auto& [probe, element] : sorted) ++first_of_probe_[probe + 1];
    for (std::size_t p = 1; p < first_of_probe_.size(); ++p) first_of_probe_[p] += first_of_probe_[p - 1];
    element_of_.reserve(sorted.size());
    for (const auto& pe : sorted) element_of_.push_back(pe.second);  // already grouped by probe
  } else {
    probe_elements_ = std::move(sorted);
  }
}

void ProbeElements::add_to(SpectrumBuilder& builder) const {
  for (const auto& e : elements_) builder.add_element(file_names_[e.file], e.line, e.line, functions_[e.function]);
}

void ProbeElements::elements_of(std::span<const std::uint32_t> probes, std::vector<std::uint32_t>& out) const {
  if (!first_of_probe_.empty()) {
    const std::size_t ids = first_of_probe_.size() - 1;
    for (const std::uint32_t p : probes)
      if (p < ids) out.insert(out.end(), element_of_.begin() + first_of_probe_[p], element_of_.begin() + first_of_probe_[p + 1]);
    return;
  }
  for (const std::uint32_t p : probes) {
    auto it = std::lower_bound(probe_elements_.begin(), probe_elements_.end(), std::pair<std::uint32_t, std::uint32_t>(p, 0));
    for (; it != probe_elements_.end() && it->first == p; ++it) out.push_back(it->second);
  }
}

RuntimeSpectrumBuilder::RuntimeSpectrumBuilder(const instrument::ProbeMap& map, bool absolute_paths,
                                               const std::optional<PathFilterOptions>& paths)
    : elements_(map, absolute_paths, paths), declared_probes_(map.probe_count) {
  site_probes_.reserve(map.sites.size());
  for (const auto& s : map.sites) site_probes_.push_back(s.probe);
  std::sort(site_probes_.begin(), site_probes_.end());
  site_probes_.erase(std::unique(site_probes_.begin(), site_probes_.end()), site_probes_.end());
  // The same density rule as ProbeElements' table: one bit test per reached probe.
  if (!site_probes_.empty() && site_probes_.back() < 4 * std::uint64_t{site_probes_.size()} + 65536) {
    site_bits_.assign(std::size_t{site_probes_.back()} + 1, false);
    for (const std::uint32_t p : site_probes_) site_bits_[p] = true;
  }
  elements_.add_to(builder_);
}

void RuntimeSpectrumBuilder::unique_siteless() {
  std::sort(siteless_reached_.begin(), siteless_reached_.end());
  siteless_reached_.erase(std::unique(siteless_reached_.begin(), siteless_reached_.end()), siteless_reached_.end());
  siteless_unique_ = siteless_reached_.size();
}

bool RuntimeSpectrumBuilder::has_site(std::uint32_t probe) const {
  if (!site_bits_.empty()) return probe < site_bits_.size() && site_bits_[probe];
  return std::binary_search(site_probes_.begin(), site_probes_.end(), probe);
}

void RuntimeSpectrumBuilder::add(RuntimeTestRecord rec) {
  if (rec.skipped) {
    ++stats_.skipped;
    return;
  }
  std::vector<std::uint32_t>& elements = scratch_;  // reused: no allocation per test
  elements.clear();
  for (const std::uint32_t p : rec.probes)
    if (p < declared_probes_ && !has_site(p)) siteless_reached_.push_back(p);
  if (siteless_reached_.size() > 2 * siteless_unique_ + 1024) unique_siteless();  // amortized
  elements_.elements_of(rec.probes, elements);
  if (rec.test.failed()) ++stats_.failing;
  if (rec.test.status == TestStatus::crashed) ++stats_.crashed;
  if (rec.test.status == TestStatus::timed_out) ++stats_.timed_out;
  if (elements.empty()) without_.push_back({builder_.test_count(), rec.test.failed(), rec.test.name});
  builder_.add_test(std::move(rec.test), elements);
  ++stats_.tests;
}

void RuntimeSpectrumBuilder::start_staging() {
  if (!staged_first_) staged_first_ = builder_.test_count();
}

void RuntimeSpectrumBuilder::flush_staged(std::span<const std::uint32_t> extra_probes) {
  if (!staged_first_) return;
  const std::size_t first = *staged_first_, end = builder_.test_count();
  staged_first_.reset();
  std::vector<std::uint32_t> extra;
  elements_.elements_of(extra_probes, extra);
  if (extra.empty()) return;
  builder_.add_to_tests(first, end, extra);
  std::erase_if(without_, [&](const Uncovered& u) { return u.test >= first && u.test < end; });
}

void RuntimeSpectrumBuilder::finish(CollectResult& result) {
  flush_staged({});
  std::vector<std::string> failing_without, passing_without;
  for (auto& u : without_) (u.failed ? failing_without : passing_without).push_back(std::move(u.name));
  const std::size_t uncovered = failing_without.size() + passing_without.size();
  unique_siteless();
  if (const auto siteless = siteless_reached_.size())
    result.warnings.push_back(std::to_string(siteless) +
                              " probe(s) reached that no line of the probe map stands for: the program was built from "
                              "an earlier instrumentation of the tree (`dlfl instrument` gave the files edited since "
                              "new probe ids); rebuild it from the instrumented tree");
  // No test reached a probe: the program that ran is not the instrumented build (a plain
  // library found first on the library or Python path), or the tests never call into it.
  if (stats_.tests > 0 && without_.size() == stats_.tests) {
    result.warnings.push_back("no test reached any of the " + std::to_string(site_probes_.size()) +
                              " probes of the probe map (or every line they reach is filtered out): check that the "
                              "tests run the build of the instrumented tree, not a plain build found first on the "
                              "library or Python path, and that they call into the instrumented code");
    failing_without.clear();
    passing_without.clear();
  }
  // Usually a test of code outside the instrumented (or kept) files; a failing one then
  // cannot be localized.
  if (!failing_without.empty())
    result.warnings.push_back(counted(failing_without.size(), "failing test") +
                              " without coverage: " + name_list(failing_without));
  if (!passing_without.empty())
    result.warnings.push_back(counted(passing_without.size(), "passing test") +
                              " without coverage: " + name_list(passing_without));
  result.spectrum = std::move(builder_).finish();
  result.spectrum.set_origin(elements_.origin());
  auto& s = result.stats;
  s.tests = stats_.tests;
  s.failing = stats_.failing;
  s.crashed = stats_.crashed;
  s.timed_out = stats_.timed_out;
  s.skipped = stats_.skipped;
  s.no_coverage = uncovered;
  s.elements = result.spectrum.element_count();
}

}  // namespace dlfl::collect
