// The binary cache beside a call graph file (FILE.cache, call_graph_cache.h): a text part
// and a cache part (cut at "\n=====\n"). The harness writes the cache's key (text size,
// modification time, XXH3 of the text) and its payload hash into the cache's header, as
// the cache of this very text would have them, so mutations reach the structure of the
// arrays rather than stopping at the key or hash check; a header whose reserved word is
// 0xFFFFFFFF is left as it is (the key and hash checks themselves). A damaged cache must be
// ignored (the text is parsed) or, when it passes every check, be a well-formed graph;
// reading twice gives the same graph (the second read comes from the cache kept or rewritten).
#include <cstring>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "dlfl/graph/call_graph_cache.h"
#include "fuzz_support.h"

namespace {

namespace fs = std::filesystem;
using dlfl::graph::CompactCallGraph;

// Header fields (lib/graph/call_graph_cache.cpp): 8 magic, 4 byte order, 4 reserved,
// then u64 text size, i64 mtime, u64 text hash, 4 x u64 counts, u64 payload hash.
constexpr std::size_t kHeaderSize = 80, kReservedAt = 12, kKeyAt = 16, kPayloadHashAt = 72;

std::string with_key(std::string_view part, const fs::path& text_path, std::string_view text) {
  std::string bytes(part);
  if (bytes.size() < kHeaderSize) return bytes;
  std::uint32_t reserved = 0;
  std::memcpy(&reserved, bytes.data() + kReservedAt, sizeof reserved);
  if (reserved == 0xFFFFFFFFu) return bytes;
  const std::uint64_t key[3] = {text.size(),
                                static_cast<std::uint64_t>(fs::last_write_time(text_path).time_since_epoch().count()),
                                XXH3_64bits(text.data(), text.size())};
  std::memcpy(bytes.data() + kKeyAt, key, sizeof key);
  const std::uint64_t payload_hash = XXH3_64bits(bytes.data() + kHeaderSize, bytes.size() - kHeaderSize);
  std::memcpy(bytes.data() + kPayloadHashAt, &payload_hash, sizeof payload_hash);
  return bytes;
}

// What compact_call_graph.h promises of every graph: columns of one size per function,
// offsets ascending within their arrays, callees distinct, sorted and numbering functions.
void check_well_formed(const CompactCallGraph& g) {
  const std::size_t n = g.function_count();
  const auto column_ok = [n](const dlfl::graph::StringColumn& c) {
    if (c.offsets.size() != n + 1 || c.offsets.front() != 0 || c.offsets.back() != c.chars.size()) return false;
    for (std::size_t i = 0; i < n; ++i)
      if (c.offsets[i] > c.offsets[i + 1]) return false;
    return true;
  };
  if (!column_ok(g.names) || !column_ok(g.files) || g.lines.size() != n || g.calls_unknown.size() != n ||
      g.callee_offsets.size() != n + 1 || g.callee_offsets.front() != 0 || g.callee_offsets.back() != g.callees.size() ||
      g.kinds.size() != g.callees.size())
    __builtin_trap();
  for (std::size_t f = 0; f < n; ++f) {
    if (g.calls_unknown[f] > 1 || g.callee_offsets[f] > g.callee_offsets[f + 1]) __builtin_trap();
    for (auto k = g.callee_offsets[f]; k < g.callee_offsets[f + 1]; ++k)
      if (g.callees[k] >= n || (k > g.callee_offsets[f] && g.callees[k] <= g.callees[k - 1])) __builtin_trap();
  }
}

bool same(const CompactCallGraph& a, const CompactCallGraph& b) {
  return a.names.chars == b.names.chars && a.names.offsets == b.names.offsets && a.files.chars == b.files.chars &&
         a.files.offsets == b.files.offsets && a.lines == b.lines && a.calls_unknown == b.calls_unknown &&
         a.callee_offsets == b.callee_offsets && a.callees == b.callees && a.kinds == b.kinds;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dlfl::fuzz;
  const auto parts = split_parts(data, size, 2);
  const auto text = write_file("callgraph.tsv", parts[0]);
  write_file("callgraph.tsv.cache", with_key(parts[1], text, parts[0]));
  expect_value_or_error([&] {
    const CompactCallGraph first = dlfl::graph::read_call_graph_cached(text);
    check_well_formed(first);
    if (!same(dlfl::graph::read_call_graph_cached(text), first)) __builtin_trap();
  });
  return 0;
}
