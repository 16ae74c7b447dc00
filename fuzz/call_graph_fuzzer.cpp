// Call graph files (dlfl-callgraph.tsv, `dlfl rank --call-graph`), written back after
// reading: what was read must be writable.
#include "dlfl/graph/call_graph_format.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto path = write_file("callgraph.tsv", {reinterpret_cast<const char*>(data), size});
  expect_value_or_error([&] {
    const auto graph = dlfl::graph::read_call_graph(path);
    dlfl::graph::write_call_graph(graph, scratch_dir() / "callgraph-out.tsv");
  });
  return 0;
}
