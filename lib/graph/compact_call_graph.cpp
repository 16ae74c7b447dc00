// CompactCallGraph: calls in compressed sparse rows, and conversions from/to CallGraph.
#include "dlfl/graph/compact_call_graph.h"

#include <algorithm>

namespace dlfl::graph {

void assign_calls(CompactCallGraph& graph, const std::vector<CallRecord>& calls) {
  const std::size_t n = graph.function_count();
  // Counting sort by caller, stable: a caller's calls keep their order, so the first
  // occurrence of a repeated pair comes first and unique() keeps it.
  std::vector<std::uint64_t> offsets(n + 1, 0);
  for (const CallRecord& c : calls) ++offsets[c.caller + 1];
  for (std::size_t f = 0; f < n; ++f) offsets[f + 1] += offsets[f];
  std::vector<CallRecord> by_caller(calls.size());
  {
    std::vector<std::uint64_t> next(offsets.begin(), offsets.end() - 1);
    for (const CallRecord& c : calls) by_caller[next[c.caller]++] = c;
  }
  graph.callee_offsets.assign(1, 0);
  graph.callee_offsets.reserve(n + 1);
  graph.callees.clear();
  graph.callees.reserve(calls.size());
  graph.kinds.clear();
  graph.kinds.reserve(calls.size());
  for (std::size_t f = 0; f < n; ++f) {
    const auto first = by_caller.begin() + static_cast<std::ptrdiff_t>(offsets[f]);
    const auto last = by_caller.begin() + static_cast<std::ptrdiff_t>(offsets[f + 1]);
    std::stable_sort(first, last, [](const CallRecord& a, const CallRecord& b) { return a.callee < b.callee; });
    const auto end =
        std::unique(first, last, [](const CallRecord& a, const CallRecord& b) { return a.callee == b.callee; });
    for (auto it = first; it != end; ++it) {
      graph.callees.push_back(it->callee);
      graph.kinds.push_back(it->kind);
    }
    graph.callee_offsets.push_back(graph.callees.size());
  }
}

CompactCallGraph compact_call_graph(const CallGraph& graph) {
  CompactCallGraph out;
  const auto& g = graph.storage();
  const std::size_t n = graph.function_count();
  out.lines.reserve(n);
  out.calls_unknown.reserve(n);
  for (std::size_t v = 0; v < n; ++v) {
    const FunctionNode& f = g[v];
    out.names.push_back(f.name);
    out.files.push_back(f.file);
    out.lines.push_back(f.line);
    out.calls_unknown.push_back(f.calls_unknown ? 1 : 0);
  }
  std::vector<CallRecord> calls;
  calls.reserve(graph.call_count());
  for (auto [e, end] = boost::edges(g); e != end; ++e)
    calls.push_back({static_cast<std::uint32_t>(boost::source(*e, g)), static_cast<std::uint32_t>(boost::target(*e, g)),
                     g[*e].kind});
  assign_calls(out, calls);
  return out;
}

CallGraph expand_call_graph(const CompactCallGraph& graph) {
  CallGraph out;
  for (std::size_t f = 0; f < graph.function_count(); ++f) {
    const FunctionVertex v = out.add_function(graph.names[f], graph.files[f], graph.lines[f]);
    if (graph.calls_unknown[f]) out.mark_calls_unknown(v);
  }
  for (std::size_t f = 0; f < graph.function_count(); ++f)
    for (auto k = graph.callee_offsets[f]; k < graph.callee_offsets[f + 1]; ++k)
      out.add_call(f, graph.callees[k], graph.kinds[k]);
  return out;
}

}  // namespace dlfl::graph
