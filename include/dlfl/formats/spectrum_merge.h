// merge_spectra(): joins spectra of the same code collected in parts (test shards, job
// arrays, machines) into one spectrum (`dlfl merge`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "dlfl/formats/spectrum_formats.h"

namespace dlfl::io {

struct MergeStats {
  std::size_t inputs = 0;
  std::size_t tests = 0;            // in the output
  std::size_t failing = 0;          // of which with failure weight > 0
  std::size_t shared_tests = 0;     // tests met in more than one input
  std::size_t flaky_shared = 0;     // of which failing in some inputs only
  std::size_t elements = 0;         // in the output
  std::size_t partial_elements = 0; // present in some inputs only
  std::uint64_t covered_pairs = 0;  // nnz of the output
};

struct MergeOptions {
  // Merge inputs that look like spectra of different programs: one that shares no element
  // and no test with the inputs before it, or one without a source root beside one with.
  bool allow_disjoint = false;
};

// Reads the inputs (any spectrum format; native files are mapped, not copied), joins them
// and writes `output` atomically in `format`. Native output is streamed: memory holds the
// output's per-element offsets, element and test tables, never its coverage or the inputs'.
//
// Same code: inputs whose origins name different source roots or probe map ids (both
// known) are refused; so are, unless `options.allow_disjoint`, an input with a source
// root beside one without, and an input that shares no element and no test with the
// inputs before it (nothing says they are of one program; merged, every element would
// look covered by one input's tests only). Elements are the union, identified by (kind, file, first line) for
// code and by name for extrinsic elements; one identified the same way with another
// function or last line is not the same code and is refused. An element present in some
// inputs only is kept and counts as not covered by the other inputs' tests.
// An input file named twice (the same device and inode) is read once, so `merge X X`
// gives X. Within one input test names are distinct: a name recorded twice there is
// refused, never joined as two runs. Tests: the union by name, in the order first met.
// A test met in several inputs is one
// test covering the union of its coverage, with failure weight = the mean of its weights
// (its failing share: flaky when it failed on some machines only), its runtimes summed.
// Element order: the first input's when all inputs share one element table, else the
// union sorted by (kind, file, line) when every input is sorted that way, else first met.
//
// Throws dlfl::Error "INPUT: what" (one line, naming the input and the one it disagrees
// with) for an unreadable input, mismatched origins or element identities, and
// dlfl::Error naming `output` when it cannot be written; no output is left behind then.
MergeStats merge_spectra(std::span<const std::filesystem::path> inputs, const std::filesystem::path& output,
                         SpectrumFormat format, const MergeOptions& options = {});

}  // namespace dlfl::io
