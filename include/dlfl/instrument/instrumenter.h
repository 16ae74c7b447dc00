// instrument(): rewrites C++/CUDA sources with coverage probes (Clang libTooling), writing
// the probed copies and a probe map into an output tree; the originals stay untouched.
//
// Only available when dlfl was built with the Clang 14 development packages
// (DLFL_HAVE_INSTRUMENT is then defined for users of the dlfl_instrument target).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlfl::instrument {

// Where probes go: what one probe, hence one element of the spectrum, stands for.
enum class ProbeGranularity {
  statement,  // one probe before every statement that runs code
  block,      // one probe per straight-line run of statements (a basic block of clang's CFG)
};

// "statement", "block"; nullopt for any other name.
std::optional<ProbeGranularity> parse_probe_granularity(std::string_view name) noexcept;
// The name parse_probe_granularity reads back.
std::string_view probe_granularity_name(ProbeGranularity granularity) noexcept;

struct InstrumentOptions {
  // Directory holding compile_commands.json (CMake: -DCMAKE_EXPORT_COMPILE_COMMANDS=ON).
  std::filesystem::path build_dir;
  // Source tree to mirror into out_dir; only files under it are rewritten. Default: the
  // deepest directory holding every selected source.
  std::filesystem::path root;
  // Where the rewritten tree and the probe map go (created; must not be inside a source
  // file's path). Files already there are overwritten where their text changes; with the
  // probe map of an earlier run there, files whose probes did not change keep their ids
  // and their text (byte for byte and modification time): after an edit only the edited
  // files are rewritten and the build of out_dir stays incremental.
  std::filesystem::path out_dir;
  // Translation units to instrument (paths or suffixes like "src/softmax.cpp"); empty =
  // every entry of the compilation database under root.
  std::vector<std::string> sources;
  // Also rewrite the headers under root that the translation units include (templates
  // and inline functions live there). Files matching `exclude` are never rewritten.
  bool headers = true;
  // Text looked for in paths relative to root, e.g. "tests/" or "third_party/".
  std::vector<std::string> exclude;
  // Copy every other file under root as well, so out_dir builds like a clean checkout of
  // root: build outputs (build trees, setuptools build/ and *.egg-info, objects, shared
  // libraries, *.pyc) are never copied.
  bool copy_tree = true;
  ProbeGranularity granularity = ProbeGranularity::statement;
  // Clang errors in a translation unit fail the run unless this is set (the unit is then
  // rewritten from the AST clang recovered, which may miss statements).
  bool allow_errors = false;
  std::vector<std::string> extra_args;  // appended to every compile command
  // Translation units parsed at once (0 = one per hardware thread). The output is the same
  // for every value.
  unsigned jobs = 1;
  // Only extract the call graph into `call_graph` (`dlfl callgraph`): nothing is rewritten
  // and out_dir is not used.
  bool call_graph_only = false;
  // Where the call graph goes; default out_dir / graph::kCallGraphFileName (beside the map).
  std::filesystem::path call_graph;
  // Progress and diagnostics, one line each (default: silent).
  std::function<void(std::string_view)> log;
};

struct InstrumentResult {
  std::filesystem::path probe_map;                  // out_dir / kProbeMapFileName
  std::filesystem::path call_graph;                 // the call graph file written
  std::size_t functions = 0, calls = 0;             // its nodes and edges
  std::vector<std::filesystem::path> rewritten;     // files under out_dir holding probes
  std::uint32_t probes = 0;
  std::uint32_t translation_units = 0;
  std::uint32_t skipped_functions = 0;  // consteval, coroutines, bodies inside macros
  std::size_t kept_files = 0;  // rewritten files unchanged since the earlier run into out_dir
};

// Throws dlfl::Error for a missing or unreadable compilation database, a source that is
// not in it, clang errors (unless allow_errors; clang's messages go to stderr first, except
// for #includes that are not found, e.g. generated headers of a tree never built: one
// line says so) and output that cannot be written.
InstrumentResult instrument(const InstrumentOptions& options);

}  // namespace dlfl::instrument
