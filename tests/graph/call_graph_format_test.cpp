// Tests for the call graph file: round trip, tolerated input (BOM, CRLF, comments,
// cycles, empty graphs) and one-line errors naming file and line.
#include "dlfl/graph/call_graph_format.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "dlfl/error.h"

namespace dlfl::graph {
namespace {

namespace fs = std::filesystem;

class CallGraphFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dlfl-callgraph-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& text) {
    const fs::path p = dir_ / "g.tsv";
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  std::string error_of(const std::string& text) {
    try {
      read_call_graph(write(text));
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  }
  fs::path dir_;
};

TEST_F(CallGraphFile, RoundTripKeepsFunctionsCallsKindsAndUnknownCalls) {
  CallGraph g;
  const auto main = g.add_function("main", "src/main.cpp", 3);
  const auto kernel = g.add_function("ns::kernel", "src/k.cu", 10);
  g.add_call(main, kernel, CallKind::launch);
  g.add_call("main", "ns::Base::run", CallKind::virtual_);
  g.add_call("ns::Base::run", "main", CallKind::direct);  // a cycle
  g.add_call(main, main, CallKind::direct);              // recursion
  g.add_call(main, kernel, CallKind::direct);            // repeated pair: kept once
  g.mark_calls_unknown(main);
  const fs::path p = dir_ / "out.tsv";
  write_call_graph(g, p);
  const CallGraph back = read_call_graph(p);
  EXPECT_EQ(back.function_count(), 3u);
  EXPECT_EQ(back.call_count(), 4u);
  const auto m = back.find("main");
  ASSERT_TRUE(m);
  EXPECT_TRUE(back.function(*m).calls_unknown);
  EXPECT_EQ(back.function(*back.find("ns::kernel")).file, "src/k.cu");
  EXPECT_EQ(back.function(*back.find("ns::kernel")).line, 10u);
  const auto [e, found] = boost::edge(*m, *back.find("ns::kernel"), back.storage());
  ASSERT_TRUE(found);
  EXPECT_EQ(back.storage()[e].kind, CallKind::launch);
}

TEST_F(CallGraphFile, AcceptsBomCrlfCommentsAndAnEmptyGraph) {
  const CallGraph g = read_call_graph(write("\xEF\xBB\xBF# made by hand\r\ndlfl-call-graph\t1\r\n\r\n"
                                            "function\tf\ta.cpp\t1\r\nfunction\tg\t\t0\r\ncall\tf\tg\tdirect\r\n"));
  EXPECT_EQ(g.function_count(), 2u);
  EXPECT_EQ(g.call_count(), 1u);
  EXPECT_TRUE(read_call_graph(write("dlfl-call-graph\t1\n")).empty());
}

TEST_F(CallGraphFile, ErrorsNameFileAndLine) {
  const std::string head = "dlfl-call-graph\t1\nfunction\tf\ta.cpp\t1\n";
  const std::string file = (dir_ / "g.tsv").string();
  EXPECT_EQ(error_of(head + "call\tf\tmissing\tdirect\n"),
            file + ":3: call to unknown function 'missing' (no function record)");
  EXPECT_EQ(error_of(head + "call\tghost\tf\tdirect\n"),
            file + ":3: call from unknown function 'ghost' (no function record)");
  EXPECT_EQ(error_of(head + "call\tf\tf\tindirect\n"),
            file + ":3: unknown call kind 'indirect' (direct, virtual, launch)");
  EXPECT_EQ(error_of(head + "function\tg\ta.cpp\tx\n"), file + ":3: function line 'x' is not a number");
  EXPECT_EQ(error_of(head + "edge\tf\tf\n"), file + ":3: unknown record 'edge'");
  EXPECT_EQ(error_of("digraph {}\n"), file + ":1: not a dlfl call graph (expected 'dlfl-call-graph<TAB>1')");
  EXPECT_EQ(error_of(""), file + ": empty file: not a dlfl call graph");
  EXPECT_EQ(error_of("dlfl-call-graph\t9\n"), file + ":1: unsupported call graph version '9'");
  EXPECT_THROW(read_call_graph(dir_ / "absent.tsv"), Error);
}

}  // namespace
}  // namespace dlfl::graph
