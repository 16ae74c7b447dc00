// CallGraph: functions by name over a Boost.Graph adjacency_list.
#include "dlfl/graph/call_graph.h"

namespace dlfl::graph {

FunctionVertex CallGraph::add_function(std::string_view name, std::string_view file, std::uint32_t line) {
  auto it = index_.find(name);
  if (it == index_.end()) {
    const FunctionVertex v = boost::add_vertex(FunctionNode{std::string(name), std::string(file), line, false}, graph_);
    index_.emplace(std::string(name), v);
    return v;
  }
  if (!file.empty() && graph_[it->second].file.empty()) {
    graph_[it->second].file = std::string(file);
    graph_[it->second].line = line;
  }
  return it->second;
}

void CallGraph::add_call(FunctionVertex caller, FunctionVertex callee, CallKind kind) {
  // A scan of the caller's callees (vecS): functions call few others, and a set of pairs
  // cost an allocation per call.
  for (auto [e, end] = boost::out_edges(caller, graph_); e != end; ++e)
    if (boost::target(*e, graph_) == callee) return;
  boost::add_edge(caller, callee, CallEdge{kind}, graph_);
}

void CallGraph::add_call(std::string_view caller, std::string_view callee, CallKind kind) {
  const FunctionVertex from = add_function(caller);
  add_call(from, add_function(callee), kind);
}

std::optional<FunctionVertex> CallGraph::find(std::string_view name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void CallGraph::merge(const CallGraph& other) {
  const auto& g = other.storage();
  for (auto [v, end] = boost::vertices(g); v != end; ++v) {
    const FunctionNode& node = g[*v];
    const FunctionVertex mine = add_function(node.name, node.file, node.line);
    if (node.calls_unknown) mark_calls_unknown(mine);
  }
  for (auto [e, end] = boost::edges(g); e != end; ++e)
    add_call(g[boost::source(*e, g)].name, g[boost::target(*e, g)].name, g[*e].kind);
}

std::string_view call_kind_name(CallKind kind) noexcept {
  switch (kind) {
    case CallKind::direct: return "direct";
    case CallKind::virtual_: return "virtual";
    case CallKind::launch: return "launch";
  }
  return "direct";
}

std::optional<CallKind> parse_call_kind(std::string_view name) noexcept {
  if (name == "direct") return CallKind::direct;
  if (name == "virtual") return CallKind::virtual_;
  if (name == "launch") return CallKind::launch;
  return std::nullopt;
}

}  // namespace dlfl::graph
