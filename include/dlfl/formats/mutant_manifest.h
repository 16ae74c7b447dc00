// The mutants manifest of a mutant schemata build (`dlfl kill-matrix`): which mutants the
// rewritten tree holds, the number that switches each on, and what it changes. JSON:
//
//   {"format": "dlfl-mutant-schemata", "version": 1,
//    "switch": "DLFL_MUTANT",            // environment variable read once by the program
//    "tree": "tree",                      // the rewritten source tree, relative to the manifest
//    "generated": 120, "dropped_uncompilable": 7, "dropped_unguardable": 3,
//    "mutants": [{"number": 1, "id": "src_loss_cpp-L97-arithmetic_replace-1",
//                 "file": "src/loss.cpp", "line": 97, "column": 21,
//                 "operator": "arithmetic_replace", "original": "*", "replacement": "/",
//                 "function": "tensorlite::cross_entropy_backward"}, ...],
//    "lines": [{"file": "src/loss.cpp", "line": 97}, ...]}
//
// `number` is what the switch variable is set to (1, 2, ...; unset or 0 runs the original
// program); `file` is spelled as the spectrum the mutants were chosen from spells it.
// `lines` are the lines mutants were sought on, in the order they were examined, whether an
// operator applied to them or not: a line outside them was never tried (the budget ran
// out first). Manifests written before dlfl recorded them have no "lines".
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dlfl::io {

inline constexpr const char* kMutantManifestFileName = "mutants.json";
inline constexpr const char* kMutantSwitchVariable = "DLFL_MUTANT";

struct ManifestMutant {
  std::uint32_t number = 0;  // > 0, unique
  std::string id;            // dlfl mutate's id
  std::string file;
  std::uint32_t line = 0;  // 1-based
  std::uint32_t column = 0;
  std::string op;  // operator name (dlfl mutate --list-operators)
  std::string original, replacement;
  std::string function;
};

struct ManifestLine {
  std::string file;        // spelled as the mutants' files are
  std::uint32_t line = 0;  // 1-based
  bool operator==(const ManifestLine&) const = default;
};

struct MutantManifest {
  std::string switch_variable = kMutantSwitchVariable;
  std::string tree = "tree";
  // Mutants the operators made for the chosen lines, and those left out because clang
  // could not compile them in the schemata or no switch could guard them (in a
  // declaration or outside a function body): generated = mutants.size() + both drops.
  std::size_t generated = 0;
  std::size_t dropped_uncompilable = 0;
  std::size_t dropped_unguardable = 0;
  std::vector<ManifestMutant> mutants;  // ascending numbers
  // The lines examined for mutants, in order; nullopt for a manifest that does not say.
  std::optional<std::vector<ManifestLine>> lines;
};

// Writes atomically. Throws dlfl::Error(path, 0, ...) when it cannot be written.
void write_mutant_manifest(const MutantManifest& manifest, const std::filesystem::path& path);

// Throws dlfl::Error(path, 0, ...) for an unreadable file, invalid JSON, a missing or
// mistyped field, a number that is 0 or repeated, or a line of 0 (of a mutant or in "lines").
MutantManifest read_mutant_manifest(const std::filesystem::path& path);

// A digest of the mutants (numbers, places, edits): a results journal records it so that
// results of another schemata are never mixed in.
std::uint64_t manifest_digest(const MutantManifest& manifest);

}  // namespace dlfl::io
