// The static call graph of the instrumented code, extracted from the same parse as the
// probes: a front-end action wrapper that adds a call-graph walk to the planner's.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dlfl/graph/call_graph.h"

namespace clang::tooling {
class FrontendActionFactory;
}

namespace dlfl::instrument::detail {

// What the walk learns, per worker; merged over workers and resolved once, because an
// override may live in another translation unit than the virtual call it serves.
struct CallGraphFacts {
  graph::CallGraph graph;
  std::vector<std::pair<std::string, std::string>> virtual_calls;  // caller, method named at the call
  std::vector<std::pair<std::string, std::string>> overrides;      // overrider, overridden method

  void merge(CallGraphFacts&& other);
  // The graph in which every virtual call also reaches each override seen (transitively).
  graph::CallGraph resolve() const;
};

// Nodes are the functions defined in files `instrumentable` accepts (absolute real
// paths), named as the probe planner names them (qualified name of the template, lambdas
// `outer::lambda@LINE`); edges go to callees declared in such files:
//  - direct calls and constructor calls; a call of a template resolved per instantiation
//    and, in the template itself, to every candidate of a dependent overload set;
//  - virtual calls (not qualified `Base::f()`) to the method and, after resolve(), every
//    override;
//  - CUDA kernel launches `k<<<g, b>>>(...)` (kind launch);
//  - a lambda from the function defining it (it runs on its behalf, directly or through
//    an algorithm), and from a function calling it by name.
// Calls through function pointers, member pointers and std::function mark the caller
// `calls_unknown`. `inner` may be null (the walk alone, for `dlfl callgraph`). `facts`
// must outlive the factory.
std::unique_ptr<clang::tooling::FrontendActionFactory> with_call_graph(
    std::unique_ptr<clang::tooling::FrontendActionFactory> inner, std::function<bool(const std::string&)> instrumentable,
    CallGraphFacts& facts);

}  // namespace dlfl::instrument::detail
