// The call graph file `dlfl instrument` writes beside its probe map and `dlfl callgraph`
// writes for gcov/llvm users; `dlfl rank --call-graph` reads it.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "dlfl/graph/call_graph.h"
#include "dlfl/graph/compact_call_graph.h"

namespace dlfl::graph {

// Text, one record per line, tab-separated (names never hold tabs or newlines):
//   dlfl-call-graph <TAB> 1
//   function <TAB> NAME <TAB> FILE <TAB> LINE [<TAB> unknown-calls]
//   call <TAB> CALLER <TAB> CALLEE <TAB> direct|virtual|launch
// Lines starting with '#' and empty lines are skipped; a BOM and CRLF line ends are
// accepted. Every name a call uses must have a function record (anywhere in the file).
// A graph without functions is valid (empty). read_call_graph throws dlfl::Error
// "PATH:LINE: why" for a malformed record, a call naming an unknown function or an
// unreadable file; write_call_graph writes atomically and throws dlfl::Error on failure.
void write_call_graph(const CallGraph& graph, const std::filesystem::path& path);
CallGraph read_call_graph(const std::filesystem::path& path);
// The graph in a call graph file's `text` (read_file_bytes of it), errors naming `where`
// as read_call_graph's do. O(text), no allocation per record.
CompactCallGraph parse_call_graph(std::string_view text, const std::string& where);

// The file name `dlfl instrument` writes next to kProbeMapFileName.
inline constexpr const char* kCallGraphFileName = "dlfl-callgraph.tsv";

}  // namespace dlfl::graph
