// Turns probe plans into rewritten files and the probe map: ids, probe text, prologue.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "dlfl/probe_map/probe_map.h"
#include "probe_plan.h"

namespace dlfl::instrument::detail {

// The probe map of `plans` and the first probe id of each planned file (in plans.files()
// order; a file's probes count up from it in offset order). Files relative to root.
//
// A rewritten file carries its own ids, the map's probe count and the map id, nothing
// else of the run. The count leaves room (a quarter more ids than used, in pages), so
// that instrumenting again after an edit can give the edited file new ids and leave the
// others byte for byte as they were: with `previous` (the map an earlier run wrote into
// the same output directory), a file whose probes stand for the same sites as before
// keeps its ids; a changed or new file gets ids above every id of the previous map's
// sites (the old ones are retired: a build older than the map reaches probes the map has
// no site for, which the collector reports). The map keeps the previous count and id
// while the ids fit; the ids it shares with builds of earlier runs mean the same lines.
// When the ids outgrow the count, the count grows (a new id) and every file changes once.
// Without a previous map, or when no file is kept, ids count up from 0 in (file, offset)
// order.
struct AssignedIds {
  ProbeMap map;
  std::vector<std::uint32_t> first_id;
  std::size_t kept_files = 0;  // files whose ids came from `previous`
  std::uint32_t probes = 0;    // probes planned (map.probe_count leaves room beyond them)
};
AssignedIds build_probe_map(const PlanSet& plans, const std::filesystem::path& root,
                            const ProbeMap* previous = nullptr);

// `original` with the prologue and every probe of `probes` inserted; ids count up from
// `first_id` in offset order. Line numbers are preserved: probes go inline and the
// prologue ends with `#line 1 "original_path"`.
std::string rewrite_source(const std::string& original, const std::string& original_path,
                           const std::map<std::uint32_t, PlannedProbe>& probes, std::uint32_t first_id,
                           const ProbeMap& map);

// Writes every planned file under out_dir (mirroring root) whose text differs from what
// is there (an unchanged file keeps its modification time), and the probe map beside
// them. Returns the paths of every planned file. Throws dlfl::Error when a file cannot be
// read or written.
std::vector<std::filesystem::path> write_instrumented_tree(const PlanSet& plans, const AssignedIds& ids,
                                                           const std::filesystem::path& root,
                                                           const std::filesystem::path& out_dir);

}  // namespace dlfl::instrument::detail
