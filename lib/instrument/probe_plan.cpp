// Merging of probe plans from several translation units.
#include "probe_plan.h"

#include <algorithm>

namespace dlfl::instrument::detail {

void PlanSet::add(const std::string& file, PlannedProbe probe) {
  auto& probes = files_[file];
  auto [it, inserted] = probes.try_emplace(probe.offset, std::move(probe));
  if (inserted) return;
  // The same spot seen again (another translation unit, or a header included twice with
  // different macros): keep one probe that is valid in every context. Every rule below is
  // commutative, so the result does not depend on the order in which units were parsed
  // (`dlfl instrument -j N` parses them in parallel).
  PlannedProbe& kept = it->second;
  kept.lines.insert(kept.lines.end(), probe.lines.begin(), probe.lines.end());
  std::sort(kept.lines.begin(), kept.lines.end());
  kept.lines.erase(std::unique(kept.lines.begin(), kept.lines.end()), kept.lines.end());
  kept.guarded = kept.guarded || probe.guarded;
  // A header seen from a CUDA and a C++ unit: the macro form is valid in both.
  kept.macro_form = kept.macro_form || probe.macro_form;
  if (kept.space != probe.space) kept.space = ProbeSpace::host_device;
  if (probe.wrap) {
    kept.close_offset = kept.wrap ? std::max(kept.close_offset, probe.close_offset) : probe.close_offset;
    kept.wrap = true;
  }
  if (probe.function < kept.function) kept.function = std::move(probe.function);
}

void PlanSet::merge(PlanSet&& other) {
  for (auto& [file, probes] : other.files_)
    for (auto& [offset, probe] : probes) add(file, std::move(probe));
  skipped_functions += other.skipped_functions;
  other.files_.clear();
  other.skipped_functions = 0;
}

}  // namespace dlfl::instrument::detail
