// The functions of a spectrum joined with the nodes of a call graph by name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/aggregate.h"
#include "dlfl/graph/call_graph.h"
#include "dlfl/graph/compact_call_graph.h"
#include "dlfl/spectrum.h"

namespace dlfl::graph {

// The part of a function name every producer agrees on: the qualified name without
// template arguments, parameter list, cv/ref qualifiers and return type, so that the
// instrumenter's `ns::Tensor::slice`, gcov's demangled `ns::Tensor::slice(long, long) const`
// and `void ns::fill<float>(float*, int)` join as `ns::Tensor::slice` and `ns::fill`.
// Operator names keep their symbol (`ns::Vec::operator[]`).
std::string function_key(std::string_view name);

// Functions of a spectrum (its elements aggregated by file and function) with their call
// neighbours among themselves, in compressed sparse rows over function indices.
struct FunctionGraph {
  Aggregated functions;  // functions.group_of[element] = the element's function index
  std::vector<std::uint64_t> callee_offsets{0}, caller_offsets{0};
  std::vector<std::uint32_t> callees, callers;  // distinct, without the function itself
  std::size_t joined = 0;  // functions found in the call graph

  std::size_t size() const noexcept { return functions.spectrum.element_count(); }
};

// Joins by function_key; a spectrum function the graph lacks is a node without calls,
// and graph functions the spectrum lacks are left out (calls through them are not
// followed). Throws dlfl::Error when the graph has functions but none joins (a graph of
// another program, or names of another producer).
FunctionGraph join_functions(const Spectrum& elements, const CompactCallGraph& graph);
FunctionGraph join_functions(const Spectrum& elements, const CallGraph& graph);

}  // namespace dlfl::graph
