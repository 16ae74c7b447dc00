// Merging of probe plans from several translation units.
#include "probe_plan.h"

#include <algorithm>

namespace dlfl::instrument::detail {

void PlanSet::add(const std::string& file, PlannedProbe probe) {
  auto& probes = files_[file];
  auto [it, inserted] = probes.try_emplace(probe.offset, std::move(probe));
  if (inserted) return;
  // The same spot seen again (another translation unit, or a header included twice with
  // different macros): keep one probe that is valid in every context.
  PlannedProbe& kept = it->second;
  for (const auto& l : probe.lines)
    if (std::find(kept.lines.begin(), kept.lines.end(), l) == kept.lines.end()) kept.lines.push_back(l);
  kept.guarded = kept.guarded || probe.guarded;
  // A header seen from a CUDA and a C++ unit: the macro form is valid in both.
  kept.macro_form = kept.macro_form || probe.macro_form;
  if (kept.space != probe.space) kept.space = ProbeSpace::host_device;
  if (probe.wrap && !kept.wrap) {
    kept.wrap = true;
    kept.close_offset = probe.close_offset;
  }
}

}  // namespace dlfl::instrument::detail
