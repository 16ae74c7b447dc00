// ProbeMap: which original source lines each runtime probe stands for. Written by
// `dlfl instrument` beside the rewritten sources, read by the runtime collector to turn
// per-test probe bytes into per-test covered lines. Knows no Clang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dlfl::instrument {

// Where a probe's store runs: host code, device code, or a __host__ __device__ function
// (stored in the host map on the host and in the device map on the device).
enum class ProbeSpace : std::uint8_t { host = 0, device = 1, host_device = 2 };

// One (probe, source line) pair. A statement probe has one site; a basic-block probe has
// one site per statement line of its block, and a function's first probe also carries the
// line of the function's name (entering the function covers it, as gcov reports it).
struct ProbeSite {
  std::uint32_t probe = 0;
  std::uint32_t file = 0;      // index into ProbeMap::files
  std::uint32_t line = 0;      // 1-based line in the original file
  std::uint32_t column = 0;    // 1-based column of the statement
  std::uint32_t function = 0;  // index into ProbeMap::functions
  ProbeSpace space = ProbeSpace::host;
};

struct ProbeMap {
  std::string root;                    // absolute source root the file paths are relative to
  std::uint64_t id = 0;                // hash of the sites; the runtime file records it
  // Probe ids are 0 .. probe_count-1. `dlfl instrument` leaves room beyond the ids it
  // uses (ids without a site: for later edits, or retired by them).
  std::uint32_t probe_count = 0;
  std::vector<std::string> files;      // relative to root (absolute when outside it)
  std::vector<std::string> functions;  // qualified names, lambdas as `outer::lambda@LINE`
  std::vector<ProbeSite> sites;        // sorted by (probe, file, line)

  // The id over files, functions and sites (FNV-1a 64; 0 is never returned).
  std::uint64_t compute_id() const;
};

// Text format, one record per line, tab-separated (names never hold tabs or newlines):
//   dlfl-probe-map <TAB> 1
//   root <TAB> /abs/root
//   probes <TAB> N
//   id <TAB> 16 hex digits
//   file <TAB> INDEX <TAB> path
//   function <TAB> INDEX <TAB> name
//   site <TAB> probe <TAB> file <TAB> line <TAB> column <TAB> function <TAB> h|d|hd
// Lines starting with '#' are comments. Both functions throw dlfl::Error ("PATH:LINE: why"
// for a malformed record); write_probe_map writes atomically. read_probe_map refuses a file
// over kMaxProbeMapBytes before reading it, and a line over 1 MiB as soon as that much of it
// is read ("PATH:LINE: line longer than the 1 MiB limit").
void write_probe_map(const ProbeMap& map, const std::filesystem::path& path);
ProbeMap read_probe_map(const std::filesystem::path& path);

// The largest probe map read (1 GiB): a site record is about 35 bytes, so the bound is
// some thirty million sites, several times a whole deep-learning framework's statements;
// the text is held while the map is built.
inline constexpr std::size_t kMaxProbeMapBytes = std::size_t{1} << 30;

// The file name `dlfl instrument` writes into its output directory.
inline constexpr const char* kProbeMapFileName = "dlfl-probes.map";

}  // namespace dlfl::instrument
