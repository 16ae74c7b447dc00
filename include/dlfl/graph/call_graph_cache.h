// Reading a call graph file through a binary cache beside it: `dlfl rank --call-graph`
// reads the same graph on every run, and parsing a 10^5-function text graph costs
// several times a ranking of a 1M-line spectrum; loading its binary form does not.
#pragma once

#include <filesystem>

#include "dlfl/graph/compact_call_graph.h"

namespace dlfl::graph {

// FILE.cache: where read_call_graph_cached keeps FILE's binary form.
std::filesystem::path call_graph_cache_path(const std::filesystem::path& path);

// The graph in the call graph file `path` (call_graph_format.h). When FILE.cache was
// written for this file's size, modification time and XXH3 hash of its bytes (the text is
// always read and hashed, so an edit within the clock's resolution is seen too) and is
// intact, the graph comes from it; otherwise the text is parsed and the cache written
// (atomically; a directory that cannot be written only costs the parse next time). A
// damaged, truncated or foreign cache is ignored and rewritten. Errors are the text's:
// dlfl::Error "PATH[:LINE]: why" as read_call_graph throws, and no cache is written
// for a malformed file.
CompactCallGraph read_call_graph_cached(const std::filesystem::path& path);

}  // namespace dlfl::graph
