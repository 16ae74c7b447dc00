// Probe plans: where probes go in the original files, gathered from every translation unit
// before ids are assigned. Plain data, no Clang types, so the rewriting step stays small.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dlfl/instrument/instrumenter.h"
#include "dlfl/probe_map/probe_map.h"

namespace dlfl::instrument::detail {

// A source line a probe stands for, with the column of the statement starting there.
struct LineColumn {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend bool operator==(const LineColumn&, const LineColumn&) = default;
  friend auto operator<=>(const LineColumn&, const LineColumn&) = default;
};

struct PlannedProbe {
  std::uint32_t offset = 0;        // byte offset in the original file where the probe goes
  bool wrap = false;               // a lone sub-statement: probe and statement get braces
  std::uint32_t close_offset = 0;  // with wrap: where the closing brace goes
  bool guarded = false;            // in a constexpr function: skip during constant evaluation
  bool macro_form = false;         // DLFL_RT_PROBE(id): host or device store by compilation pass
  ProbeSpace space = ProbeSpace::host;
  std::vector<LineColumn> lines;   // first = the statement the probe precedes
  std::string function;
};

// Every probe of a run, keyed by (original file, offset): a header parsed by several
// translation units plans the same probes again, and merging keeps one.
class PlanSet {
 public:
  void add(const std::string& file, PlannedProbe probe);
  // Adds every probe of `other` (left empty); the same result in any order of merging.
  void merge(PlanSet&& other);
  const std::map<std::string, std::map<std::uint32_t, PlannedProbe>>& files() const { return files_; }
  std::uint32_t skipped_functions = 0;

 private:
  std::map<std::string, std::map<std::uint32_t, PlannedProbe>> files_;
};

// What the planner needs to know about the run.
struct PlannerConfig {
  ProbeGranularity granularity = ProbeGranularity::statement;
  // Whether a file (absolute real path) may be rewritten.
  std::function<bool(const std::string&)> instrumentable;
};

}  // namespace dlfl::instrument::detail
