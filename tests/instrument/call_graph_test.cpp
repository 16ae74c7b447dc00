// The call graph `dlfl instrument` writes beside its probe map, and `dlfl callgraph`, on
// C++ constructs (virtual calls, templates, lambdas, constructors, function pointers,
// std::function) and CUDA kernel launches; node names are the probe map's.
#include <gtest/gtest.h>

#include <set>

#include "dlfl/graph/call_graph_format.h"
#include "dlfl/instrument/instrumenter.h"
#include "dlfl/probe_map/probe_map.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;
using graph::CallKind;

const fs::path kCases = fs::path(DLFL_SOURCE_DIR) / "tests/instrument/cases";

// The kind of the call caller → callee, or nothing when there is none.
std::optional<CallKind> call(const graph::CallGraph& g, const std::string& caller, const std::string& callee) {
  const auto from = g.find(caller), to = g.find(callee);
  if (!from || !to) return std::nullopt;
  const auto [e, found] = boost::edge(*from, *to, g.storage());
  if (!found) return std::nullopt;
  return g.storage()[e].kind;
}

std::set<std::string> callees(const graph::CallGraph& g, const std::string& caller) {
  std::set<std::string> out;
  const auto from = g.find(caller);
  if (!from) return out;
  for (auto [e, end] = boost::out_edges(*from, g.storage()); e != end; ++e)
    out.insert(g.storage()[boost::target(*e, g.storage())].name);
  return out;
}

class CallGraphExtraction : public ::testing::Test {
 protected:
  void SetUp() override {
    src_ = tmp_ / "src";
    write_text(src_ / "calls.cpp", slurp(kCases / "calls.cpp"));
    write_compile_commands(src_, {"calls.cpp"}, "/usr/bin/clang++-14", "-std=c++17");
  }
  TempDir tmp_;
  fs::path src_;
};

TEST_F(CallGraphExtraction, InstrumentWritesTheGraphBesideTheProbeMapWithItsNames) {
  instrument::InstrumentOptions o;
  o.build_dir = src_;
  o.out_dir = tmp_ / "out";
  const auto result = instrument::instrument(o);
  ASSERT_EQ(result.call_graph, tmp_ / "out" / graph::kCallGraphFileName);
  const graph::CallGraph g = graph::read_call_graph(result.call_graph);
  EXPECT_EQ(g.function_count(), result.functions);

  // Every probed function is a node under the same name (so graph and spectrum join).
  const auto map = instrument::read_probe_map(result.probe_map);
  for (const auto& f : map.functions) EXPECT_TRUE(g.find(f)) << f;

  // Virtual: the declared method and every override; a qualified call is direct.
  EXPECT_EQ(call(g, "ns::drive", "ns::A::run"), CallKind::direct);
  EXPECT_EQ(call(g, "ns::drive", "ns::B::run"), CallKind::virtual_);
  EXPECT_EQ(call(g, "ns::A::run", "ns::helper"), CallKind::direct);
  // Templates: the template's node, calls resolved through the instantiations.
  EXPECT_EQ(call(g, "ns::drive", "ns::twice"), CallKind::direct);
  EXPECT_EQ(call(g, "ns::twice", "ns::helper"), CallKind::direct);
  EXPECT_EQ(call(g, "ns::Box::get", "ns::twice"), CallKind::direct);
  EXPECT_EQ(call(g, "ns::make", "ns::Box::get"), CallKind::direct);
  // Constructors.
  EXPECT_EQ(call(g, "ns::make", "ns::Widget::Widget"), CallKind::direct);
  EXPECT_EQ(call(g, "ns::Widget::Widget", "ns::helper"), CallKind::direct);
  // Lambdas are nodes of their own, reached from where they are defined and called.
  EXPECT_EQ(call(g, "ns::use_lambda", "ns::use_lambda::lambda@40"), CallKind::direct);
  EXPECT_EQ(call(g, "ns::use_lambda::lambda@40", "ns::helper"), CallKind::direct);
  // Function pointers and std::function: unknown callees, nothing invented.
  EXPECT_TRUE(g.function(*g.find("ns::apply")).calls_unknown);
  EXPECT_TRUE(g.function(*g.find("ns::call_function")).calls_unknown);
  EXPECT_FALSE(g.function(*g.find("ns::drive")).calls_unknown);
  EXPECT_TRUE(callees(g, "ns::call_function").empty());
  // Nothing from the standard library.
  for (auto [v, end] = boost::vertices(g.storage()); v != end; ++v)
    EXPECT_EQ(g.storage()[*v].name.rfind("std::", 0), std::string::npos) << g.storage()[*v].name;
}

TEST_F(CallGraphExtraction, CallgraphCommandWritesTheSameGraphWithoutRewriting) {
  const Shell r = sh(std::string(DLFL_BINARY) + " callgraph -q -p " + src_.string() + " -o " + (tmp_ / "g.tsv").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const graph::CallGraph g = graph::read_call_graph(tmp_ / "g.tsv");
  EXPECT_EQ(call(g, "ns::drive", "ns::B::run"), CallKind::virtual_);
  EXPECT_FALSE(fs::exists(tmp_ / "out"));
  const Shell missing = sh(std::string(DLFL_BINARY) + " callgraph -q -p " + (tmp_ / "nowhere").string() + " -o x.tsv");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
}

TEST(CallGraphCuda, KernelLaunchesAreEdges) {
  TempDir tmp;
  const fs::path src = tmp / "src";
  write_text(src / "kernels.cu", slurp(kCases / "kernels.cu"));
  write_compile_commands(src, {"kernels.cu"}, "/usr/local/cuda/bin/nvcc", "-std=c++17 -x cu");
  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.out_dir = tmp / "out";
  const auto result = instrument::instrument(o);
  const graph::CallGraph g = graph::read_call_graph(result.call_graph);
  EXPECT_EQ(call(g, "launch_scale", "fixture::scale"), CallKind::launch);
  EXPECT_EQ(call(g, "launch_scale", "fixture::clamp_index"), CallKind::direct);
  EXPECT_EQ(call(g, "fixture::scale", "fixture::twice"), CallKind::direct);
  EXPECT_EQ(call(g, "fixture::scale", "fixture::scale::lambda@20"), CallKind::direct);
  const auto map = instrument::read_probe_map(result.probe_map);
  for (const auto& f : map.functions) EXPECT_TRUE(g.find(f)) << f;
}

}  // namespace
