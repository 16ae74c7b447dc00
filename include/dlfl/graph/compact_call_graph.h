// CompactCallGraph: a read-only call graph in flat arrays (names in one buffer, callees in
// compressed sparse rows). It is what `dlfl rank --call-graph` reads and caches: building
// the Boost.Graph CallGraph costs allocations per function and call, and for a
// 10^5-function graph more than ranking a 1M-line spectrum.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <span>
#include <vector>

#include "dlfl/graph/call_graph.h"

namespace dlfl::graph {

// Strings back to back in one buffer: string i is chars[offsets[i], offsets[i+1]).
struct StringColumn {
  std::string chars;
  std::vector<std::uint64_t> offsets{0};

  std::size_t size() const noexcept { return offsets.size() - 1; }
  std::string_view operator[](std::size_t i) const noexcept {
    return std::string_view(chars).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
  void push_back(std::string_view s) {
    chars.append(s);
    offsets.push_back(chars.size());
  }
};

// Functions are numbered in order of first appearance, as CallGraph numbers its
// vertices; each caller's callees are distinct and sorted (a pair of functions is one
// call, with the kind it was first given).
struct CompactCallGraph {
  StringColumn names, files;
  std::vector<std::uint32_t> lines;
  std::vector<std::uint8_t> calls_unknown;  // 0/1 per function
  std::vector<std::uint64_t> callee_offsets{0};
  std::vector<std::uint32_t> callees;
  std::vector<CallKind> kinds;  // one per entry of callees

  std::size_t function_count() const noexcept { return names.size(); }
  std::size_t call_count() const noexcept { return callees.size(); }
  bool empty() const noexcept { return function_count() == 0; }
};

struct CallRecord {
  std::uint32_t caller = 0, callee = 0;
  CallKind kind = CallKind::direct;
};

// Sets graph's calls (callee_offsets, callees, kinds) to `calls`, given in any order; a
// repeated pair keeps the kind of its first occurrence. Callers and callees must be
// function numbers of `graph` (not checked). O(calls + functions).
void assign_calls(CompactCallGraph& graph, const std::vector<CallRecord>& calls);

// The same graph in each form; CallGraph → compact keeps vertex numbers, compact →
// CallGraph adds the calls caller by caller.
CompactCallGraph compact_call_graph(const CallGraph& graph);
CallGraph expand_call_graph(const CompactCallGraph& graph);

}  // namespace dlfl::graph
