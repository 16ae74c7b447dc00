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
// A file over kMaxCallGraphBytes is refused before it is read, a line over io::kMaxFieldBytes
// as soon as that much of it is read ("PATH:LINE: line longer than the 1 MiB limit").
void write_call_graph(const CallGraph& graph, const std::filesystem::path& path);
CallGraph read_call_graph(const std::filesystem::path& path);

// The largest call graph file read (1 GiB): a record is a function or a call of two names,
// about 100 bytes, so the bound is ten million records, several times the functions and
// calls of a whole deep-learning framework; the text is held while the graph is built.
inline constexpr std::size_t kMaxCallGraphBytes = std::size_t{1} << 30;

// The call graph file's bytes, bounded as above (read_call_graph and the cached reader).
std::string read_call_graph_text(const std::filesystem::path& path);
// The graph in a call graph file's `text` (read_file_bytes of it), errors naming `where`
// as read_call_graph's do. O(text), no allocation per record.
CompactCallGraph parse_call_graph(std::string_view text, const std::string& where);

// The file name `dlfl instrument` writes next to kProbeMapFileName.
inline constexpr const char* kCallGraphFileName = "dlfl-callgraph.tsv";

}  // namespace dlfl::graph
