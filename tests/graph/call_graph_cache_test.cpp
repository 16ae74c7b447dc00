// Tests for the call graph's binary cache (FILE.cache) and the compact form it holds:
// cached and parsed graphs are identical, an edited file (even one of the same size and
// modification time) or a damaged cache is never trusted, a malformed file still fails.
#include "dlfl/graph/call_graph_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "dlfl/error.h"
#include "dlfl/graph/call_graph_format.h"
#include "dlfl/graph/function_join.h"
#include "dlfl/files/text_file.h"

namespace dlfl::graph {
namespace {

namespace fs = std::filesystem;

// Functions declared twice (the second fills in the file), a call before its callee's
// record, a repeated pair with another kind, recursion and a cycle.
const std::string kGraph =
    "dlfl-call-graph\t1\n"
    "function\tmain\t\t0\tunknown-calls\n"
    "call\tmain\tns::Tensor::at(long) const\tdirect\n"
    "function\tns::Tensor::at(long) const\tt.cpp\t30\n"
    "function\tmain\tm.cpp\t3\n"
    "call\tmain\tns::kernel\tlaunch\n"
    "call\tmain\tns::kernel\tdirect\n"
    "function\tns::kernel\tk.cu\t10\n"
    "call\tns::kernel\tmain\tvirtual\n"
    "call\tmain\tmain\tdirect\n";

void expect_same(const CompactCallGraph& a, const CompactCallGraph& b) {
  EXPECT_EQ(a.names.chars, b.names.chars);
  EXPECT_EQ(a.names.offsets, b.names.offsets);
  EXPECT_EQ(a.files.chars, b.files.chars);
  EXPECT_EQ(a.files.offsets, b.files.offsets);
  EXPECT_EQ(a.lines, b.lines);
  EXPECT_EQ(a.calls_unknown, b.calls_unknown);
  EXPECT_EQ(a.callee_offsets, b.callee_offsets);
  EXPECT_EQ(a.callees, b.callees);
  EXPECT_EQ(a.kinds, b.kinds);
}

class CallGraphCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dlfl-callgraph-cache-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    path_ = dir_ / "g.tsv";
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& text) { std::ofstream(path_, std::ios::binary | std::ios::trunc) << text; }
  fs::path dir_, path_;
};

TEST_F(CallGraphCache, ParsedGraphMatchesTheBoostGraphReader) {
  write(kGraph);
  const CompactCallGraph g = parse_call_graph(kGraph, path_.string());
  ASSERT_EQ(g.function_count(), 3u);
  EXPECT_EQ(g.names[0], "main");
  EXPECT_EQ(g.files[0], "m.cpp");  // filled in by the second record
  EXPECT_EQ(g.lines[0], 3u);
  EXPECT_EQ(g.calls_unknown, (std::vector<std::uint8_t>{1, 0, 0}));
  // main -> at, kernel (launch: the first kind of the pair), main; kernel -> main.
  EXPECT_EQ(g.callee_offsets, (std::vector<std::uint64_t>{0, 3, 3, 4}));
  EXPECT_EQ(g.callees, (std::vector<std::uint32_t>{0, 1, 2, 0}));
  EXPECT_EQ(g.kinds, (std::vector<CallKind>{CallKind::direct, CallKind::direct, CallKind::launch, CallKind::virtual_}));
  expect_same(g, compact_call_graph(read_call_graph(path_)));
  expect_same(g, compact_call_graph(expand_call_graph(g)));
}

TEST_F(CallGraphCache, SecondReadComesFromTheCacheAndIsIdentical) {
  write(kGraph);
  const CompactCallGraph parsed = parse_call_graph(kGraph, path_.string());
  const fs::path cache = call_graph_cache_path(path_);
  EXPECT_FALSE(fs::exists(cache));
  expect_same(read_call_graph_cached(path_), parsed);
  ASSERT_TRUE(fs::exists(cache));
  const auto written = fs::last_write_time(cache);
  expect_same(read_call_graph_cached(path_), parsed);
  EXPECT_EQ(fs::last_write_time(cache), written);  // read, not rewritten
  // Any file in the cache's place that is not this graph's cache is never believed: a
  // cache of another text put there keeps its own key.
  const fs::path other = dir_ / "other.tsv";
  std::ofstream(other, std::ios::binary) << "dlfl-call-graph\t1\nfunction\tx\t\t0\n";
  read_call_graph_cached(other);
  fs::copy_file(call_graph_cache_path(other), cache, fs::copy_options::overwrite_existing);
  expect_same(read_call_graph_cached(path_), parsed);
}

TEST_F(CallGraphCache, AnEditedFileIsReadAgainEvenWithTheSameSizeAndTime) {
  write(kGraph);
  read_call_graph_cached(path_);
  const auto mtime = fs::last_write_time(path_);
  std::string edited = kGraph;
  edited.replace(edited.find("ns::kernel\tmain\tvirtual"), 23, "ns::kernel\tmain\tdirect ");
  edited.replace(edited.find("direct \n"), 8, "direct\n\n");  // same size
  ASSERT_EQ(edited.size(), kGraph.size());
  write(edited);
  fs::last_write_time(path_, mtime);
  const CompactCallGraph g = read_call_graph_cached(path_);
  EXPECT_EQ(g.kinds.back(), CallKind::direct);
  expect_same(g, parse_call_graph(edited, path_.string()));
  expect_same(read_call_graph_cached(path_), g);  // the rewritten cache
  // A longer file, a new function.
  write(edited + "function\textra\te.cpp\t1\n");
  EXPECT_EQ(read_call_graph_cached(path_).function_count(), 4u);
}

TEST_F(CallGraphCache, ADamagedCacheIsIgnoredAndRewritten) {
  write(kGraph);
  const CompactCallGraph parsed = parse_call_graph(kGraph, path_.string());
  read_call_graph_cached(path_);
  const fs::path cache = call_graph_cache_path(path_);
  std::string bytes = io::read_file_bytes(cache);
  for (const std::size_t at : {std::size_t{0}, std::size_t{20}, bytes.size() / 2, bytes.size() - 1}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5A);
    std::ofstream(cache, std::ios::binary | std::ios::trunc) << damaged;
    expect_same(read_call_graph_cached(path_), parsed);
    EXPECT_EQ(io::read_file_bytes(cache), bytes) << "byte " << at;
  }
  std::ofstream(cache, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 3);  // truncated
  expect_same(read_call_graph_cached(path_), parsed);
  std::ofstream(cache, std::ios::binary | std::ios::trunc) << "";
  expect_same(read_call_graph_cached(path_), parsed);
}

// A cache that passes the key and hash checks but breaks what CompactCallGraph promises
// (a caller's callees sorted and distinct, calls_unknown 0 or 1) was not made by dlfl: it is
// ignored like a damaged one (fuzz/call_graph_cache_fuzzer.cpp forges such caches).
TEST_F(CallGraphCache, AWellHashedCacheOfABrokenGraphIsIgnored) {
  write(kGraph);
  const CompactCallGraph parsed = parse_call_graph(kGraph, path_.string());
  read_call_graph_cached(path_);
  const fs::path cache = call_graph_cache_path(path_);
  const std::string bytes = io::read_file_bytes(cache);
  // Where the arrays are (call_graph_cache.cpp): an 80-byte header, then the columns.
  const std::size_t n = parsed.function_count();
  const std::size_t unknown_at = 80 + 2 * (n + 1) * 8 + parsed.names.chars.size() + parsed.files.chars.size() + n * 4;
  const std::size_t callees_at = unknown_at + n + (n + 1) * 8;
  ASSERT_EQ(parsed.callee_offsets[1], 3u);  // main calls three functions: swap its first two
  const auto forge = [&](std::size_t at, std::string_view with) {
    std::string forged = bytes;
    forged.replace(at, with.size(), with);
    const std::uint64_t hash = XXH3_64bits(forged.data() + 80, forged.size() - 80);
    std::memcpy(forged.data() + 72, &hash, sizeof hash);
    std::ofstream(cache, std::ios::binary | std::ios::trunc) << forged;
  };
  forge(callees_at, bytes.substr(callees_at + 4, 4) + bytes.substr(callees_at, 4));
  expect_same(read_call_graph_cached(path_), parsed);
  EXPECT_EQ(io::read_file_bytes(cache), bytes);  // rewritten
  forge(callees_at, bytes.substr(callees_at, 4) + bytes.substr(callees_at, 4));  // a callee twice
  expect_same(read_call_graph_cached(path_), parsed);
  forge(unknown_at, "\x02");
  expect_same(read_call_graph_cached(path_), parsed);
  EXPECT_EQ(io::read_file_bytes(cache), bytes);
}

TEST_F(CallGraphCache, UnwritableCacheOnlyCostsTheParse) {
  write(kGraph);
  fs::create_directories(call_graph_cache_path(path_));  // a directory where the cache would go
  expect_same(read_call_graph_cached(path_), parse_call_graph(kGraph, path_.string()));
  EXPECT_TRUE(fs::is_directory(call_graph_cache_path(path_)));
}

TEST_F(CallGraphCache, MalformedFileFailsWithItsLineAndWritesNoCache) {
  write(kGraph);
  read_call_graph_cached(path_);  // a good cache of the old text must not hide the error
  write(kGraph + "call\tmain\tnowhere\tdirect\n");
  try {
    read_call_graph_cached(path_);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), path_.string() + ":11: call to unknown function 'nowhere' (no function record)");
  }
  fs::remove(call_graph_cache_path(path_));
  write("dlfl-call-graph\t1\nfunction\tf\ta.cpp\t1\nfunction\tg\n");
  try {
    read_call_graph_cached(path_);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              path_.string() + ":3: malformed function record (expected function<TAB>NAME<TAB>FILE<TAB>LINE)");
  }
  EXPECT_FALSE(fs::exists(call_graph_cache_path(path_)));
  EXPECT_THROW(read_call_graph_cached(dir_ / "absent.tsv"), Error);
}

TEST_F(CallGraphCache, EmptyGraphIsCachedToo) {
  write("dlfl-call-graph\t1\n");
  EXPECT_TRUE(read_call_graph_cached(path_).empty());
  EXPECT_TRUE(fs::exists(call_graph_cache_path(path_)));
  EXPECT_TRUE(read_call_graph_cached(path_).empty());
}

// Empty arrays in the cache: a graph without calls read back from its cache copied zero
// bytes into an empty vector's null data(), which UBSan reports (fuzz/corpus/call_graph_cache/
// no-calls; this test fails under scripts/sanitize.sh without the fix).
TEST_F(CallGraphCache, GraphWithoutCallsReadsBackFromItsCache) {
  const std::string text = "dlfl-call-graph\t1\nfunction\tf\ta.cpp\t1\nfunction\tg\t\t0\tunknown-calls\n";
  write(text);
  const CompactCallGraph parsed = parse_call_graph(text, path_.string());
  expect_same(read_call_graph_cached(path_), parsed);
  ASSERT_TRUE(fs::exists(call_graph_cache_path(path_)));
  const CompactCallGraph cached = read_call_graph_cached(path_);
  EXPECT_EQ(cached.function_count(), 2u);
  EXPECT_EQ(cached.call_count(), 0u);
  expect_same(cached, parsed);
}

}  // namespace
}  // namespace dlfl::graph
