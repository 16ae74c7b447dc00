// Turns probe plans into rewritten files and the probe map: ids, probe text, prologue.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "dlfl/instrument/probe_map.h"
#include "probe_plan.h"

namespace dlfl::instrument::detail {

// Probe ids in (file, offset) order and the map of their sites; files relative to root.
ProbeMap build_probe_map(const PlanSet& plans, const std::filesystem::path& root);

// `original` with the prologue and every probe of `probes` inserted; ids count up from
// `first_id` in offset order. Line numbers are preserved: probes go inline and the
// prologue ends with `#line 1 "original_path"`.
std::string rewrite_source(const std::string& original, const std::string& original_path,
                           const std::map<std::uint32_t, PlannedProbe>& probes, std::uint32_t first_id,
                           const ProbeMap& map);

// Writes every planned file under out_dir (mirroring root) and the probe map beside them.
// Returns the rewritten paths. Throws dlfl::Error when a file cannot be read or written.
std::vector<std::filesystem::path> write_instrumented_tree(const PlanSet& plans, const ProbeMap& map,
                                                           const std::filesystem::path& root,
                                                           const std::filesystem::path& out_dir);

}  // namespace dlfl::instrument::detail
