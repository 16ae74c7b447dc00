// The binary cache of a call graph file: a header naming the text it was made from, then
// the CompactCallGraph's arrays as they are in memory.
#include "dlfl/graph/call_graph_cache.h"

#include <xxhash.h>

#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "dlfl/error.h"
#include "dlfl/graph/call_graph_format.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/text_file.h"

namespace dlfl::graph {
namespace {

constexpr char kMagic[8] = {'D', 'L', 'F', 'L', 'C', 'G', 'C', '1'};
constexpr std::uint32_t kByteOrder = 0x01020304;  // a cache of another byte order reads as foreign

// What the cache was made from, and how large its arrays are. Fixed-size fields only.
struct Header {
  char magic[8];
  std::uint32_t byte_order;
  std::uint32_t reserved;
  std::uint64_t text_size;
  std::int64_t text_mtime;  // file_time_type ticks
  std::uint64_t text_hash;  // XXH3_64bits of the text's bytes
  std::uint64_t functions, calls, name_chars, file_chars;
  std::uint64_t payload_hash;  // XXH3_64bits of everything after the header
};
static_assert(sizeof(Header) == 80);

struct TextKey {
  std::uint64_t size = 0;
  std::int64_t mtime = 0;
  std::uint64_t hash = 0;
};

template <class T>
void append(std::string& out, const std::vector<T>& v) {
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// Reads arrays back from the payload; every take checks the bytes are there.
class Payload {
 public:
  explicit Payload(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  bool take(std::vector<T>& v, std::uint64_t count) {
    if (count > (bytes_.size() - at_) / sizeof(T)) return false;
    v.resize(count);
    if (count) std::memcpy(v.data(), bytes_.data() + at_, count * sizeof(T));  // an empty vector's data() may be null
    at_ += count * sizeof(T);
    return true;
  }
  bool take(std::string& s, std::uint64_t count) {
    if (count > bytes_.size() - at_) return false;
    s.assign(bytes_.substr(at_, count));
    at_ += count;
    return true;
  }
  bool done() const noexcept { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

bool valid_offsets(const std::vector<std::uint64_t>& offsets, std::uint64_t total) {
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != total) return false;
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] < offsets[i - 1]) return false;
  return true;
}

// The cached graph, or nothing when the cache is missing, stale or damaged in any way.
std::optional<CompactCallGraph> load(const std::filesystem::path& cache, const TextKey& key) {
  std::string bytes;
  try {
    // A record's arrays take at most 29 bytes beside its names (a function: two 8-byte
    // offsets, its line, the unknown flag, its callee offset), its text line at least 13
    // beside them: a cache over three times its text (and the empty graph's leading offsets)
    // is none, and is not read.
    bytes = io::read_file_bytes(cache, sizeof(Header) + 64 + 3 * key.size, "call graph cache");
  } catch (const Error&) {
    return std::nullopt;
  }
  Header h{};
  if (bytes.size() < sizeof h) return std::nullopt;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.byte_order != kByteOrder || h.text_size != key.size ||
      h.text_mtime != key.mtime || h.text_hash != key.hash)
    return std::nullopt;
  const std::string_view payload = std::string_view(bytes).substr(sizeof h);
  if (XXH3_64bits(payload.data(), payload.size()) != h.payload_hash) return std::nullopt;
  if (h.functions >= 0xFFFFFFFFu) return std::nullopt;
  CompactCallGraph g;
  Payload in(payload);
  std::vector<std::uint8_t> kinds;
  if (!in.take(g.names.offsets, h.functions + 1) || !in.take(g.names.chars, h.name_chars) ||
      !in.take(g.files.offsets, h.functions + 1) || !in.take(g.files.chars, h.file_chars) ||
      !in.take(g.lines, h.functions) || !in.take(g.calls_unknown, h.functions) ||
      !in.take(g.callee_offsets, h.functions + 1) || !in.take(g.callees, h.calls) || !in.take(kinds, h.calls) ||
      !in.done())
    return std::nullopt;
  if (!valid_offsets(g.names.offsets, h.name_chars) || !valid_offsets(g.files.offsets, h.file_chars) ||
      !valid_offsets(g.callee_offsets, h.calls))
    return std::nullopt;
  // What compact_call_graph.h promises: each caller's callees distinct, sorted, functions.
  for (std::size_t f = 0; f < h.functions; ++f) {
    if (g.calls_unknown[f] > 1) return std::nullopt;
    for (auto k = g.callee_offsets[f]; k < g.callee_offsets[f + 1]; ++k)
      if (g.callees[k] >= h.functions || (k > g.callee_offsets[f] && g.callees[k] <= g.callees[k - 1]))
        return std::nullopt;
  }
  g.kinds.reserve(kinds.size());
  for (const std::uint8_t k : kinds) {
    if (k > static_cast<std::uint8_t>(CallKind::launch)) return std::nullopt;
    g.kinds.push_back(static_cast<CallKind>(k));
  }
  return g;
}

void store(const std::filesystem::path& cache, const TextKey& key, const CompactCallGraph& g) {
  std::string payload;
  append(payload, g.names.offsets);
  payload.append(g.names.chars);
  append(payload, g.files.offsets);
  payload.append(g.files.chars);
  append(payload, g.lines);
  append(payload, g.calls_unknown);
  append(payload, g.callee_offsets);
  append(payload, g.callees);
  for (const CallKind k : g.kinds) payload.push_back(static_cast<char>(k));
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.byte_order = kByteOrder;
  h.text_size = key.size;
  h.text_mtime = key.mtime;
  h.text_hash = key.hash;
  h.functions = g.function_count();
  h.calls = g.call_count();
  h.name_chars = g.names.chars.size();
  h.file_chars = g.files.chars.size();
  h.payload_hash = XXH3_64bits(payload.data(), payload.size());
  try {
    io::AtomicFile out(cache);
    out.stream().write(reinterpret_cast<const char*>(&h), sizeof h);
    out.stream().write(payload.data(), static_cast<std::streamsize>(payload.size()));
    out.commit();
  } catch (const Error&) {
    // Only an optimization: an unwritable directory or a full disk costs the parse next time.
  }
}

}  // namespace

std::filesystem::path call_graph_cache_path(const std::filesystem::path& path) {
  std::filesystem::path cache = path;
  cache += ".cache";
  return cache;
}

CompactCallGraph read_call_graph_cached(const std::filesystem::path& path) {
  const std::string text = read_call_graph_text(path);
  TextKey key{text.size(), 0, XXH3_64bits(text.data(), text.size())};
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(path, ec);
  if (!ec) key.mtime = static_cast<std::int64_t>(mtime.time_since_epoch().count());
  const std::filesystem::path cache = call_graph_cache_path(path);
  if (auto cached = load(cache, key)) return std::move(*cached);
  CompactCallGraph graph = parse_call_graph(text, path.string());
  store(cache, key, graph);
  return graph;
}

}  // namespace dlfl::graph
