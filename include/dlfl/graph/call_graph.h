// CallGraph: the static call graph of a program (caller function -> callee function) held
// in a Boost.Graph adjacency_list, with functions addressed by name.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dlfl::graph {

// How a call reaches its callee.
enum class CallKind : std::uint8_t {
  direct = 0,    // a call to a named function (templates: the template, not each instance)
  virtual_ = 1,  // a virtual call: one edge to the declared method and to every override seen
  launch = 2,    // a CUDA kernel launch `kernel<<<grid, block>>>(...)`
};

struct FunctionNode {
  std::string name;  // qualified name as the instrumenter names it (probe_map.h), lambdas `outer::lambda@LINE`
  std::string file;  // where it is defined (may be empty: declared only)
  std::uint32_t line = 0;
  // The function calls something no static analysis can name: a function pointer, a
  // std::function, a member pointer. Its callees are then incomplete.
  bool calls_unknown = false;
};

struct CallEdge {
  CallKind kind = CallKind::direct;
};

// bidirectionalS: propagation walks to callers as well as to callees. Vectors for the
// edge lists (add_call keeps each caller/callee pair once itself, and edges are never
// removed): with setS/listS each call cost three tree or list nodes, and reading and
// freeing a 10^5-function graph took longer than ranking a 1M-element spectrum.
using CallGraphStorage = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, FunctionNode, CallEdge,
                                               boost::no_property, boost::vecS>;
using FunctionVertex = boost::graph_traits<CallGraphStorage>::vertex_descriptor;

class CallGraph {
 public:
  // The function's vertex, added when new. A later call with a file/line fills them in
  // when they were unknown.
  FunctionVertex add_function(std::string_view name, std::string_view file = {}, std::uint32_t line = 0);
  // Adds the call once (a second call of the same pair keeps the first kind). Recursion
  // (an edge to itself) and cycles are normal.
  void add_call(FunctionVertex caller, FunctionVertex callee, CallKind kind);
  void add_call(std::string_view caller, std::string_view callee, CallKind kind);
  void mark_calls_unknown(FunctionVertex function) { graph_[function].calls_unknown = true; }

  std::optional<FunctionVertex> find(std::string_view name) const;
  std::size_t function_count() const noexcept { return boost::num_vertices(graph_); }
  std::size_t call_count() const noexcept { return boost::num_edges(graph_); }
  bool empty() const noexcept { return function_count() == 0; }

  const CallGraphStorage& storage() const noexcept { return graph_; }
  const FunctionNode& function(FunctionVertex v) const { return graph_[v]; }

  // Adds every function and call of `other` (several translation units into one graph).
  void merge(const CallGraph& other);

 private:
  // Heterogeneous lookup: finding a name costs no string copy.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  CallGraphStorage graph_;
  std::unordered_map<std::string, FunctionVertex, NameHash, std::equal_to<>> index_;
};

std::string_view call_kind_name(CallKind kind) noexcept;
// "direct", "virtual", "launch"; nullopt for anything else.
std::optional<CallKind> parse_call_kind(std::string_view name) noexcept;

}  // namespace dlfl::graph
