// Mutant: one seeded fault (a single contiguous source edit) and its ground truth.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlfl::mutate {

// The bug types of Jahan et al.'s taxonomy (EMSE 2025; REFERENCE.md §4) a DL mutation
// operator imitates, `numerics` for numerical-stability faults (tensorlite's label for
// misplaced epsilons), and `traditional` for the classic operators.
enum class BugType { tensor, training, model, api, gpu, numerics, traditional };

// "tensor", "training", "model", "api", "gpu", "numerics", "traditional".
std::string_view to_string(BugType type);
// Inverse of to_string (exact, lower case); nullopt for anything else.
std::optional<BugType> parse_bug_type(std::string_view name);
// True for every type but `traditional`.
inline bool is_dl(BugType type) { return type != BugType::traditional; }

struct Mutant {
  // Unique within one run and stable across --seed/--max: "<file>-L<line>-<operator>-<k>",
  // the file with every character but [A-Za-z0-9] turned into '_' (src_adam_cpp-L34-...).
  std::string id;
  // Path relative to the source root, '/' separators (the patch's a/ and b/ paths).
  std::string file;
  // 1-based line and column of the edit's first character, and the line of its last
  // character, in the original file.
  std::uint32_t line = 0;
  std::uint32_t end_line = 0;
  std::uint32_t column = 0;
  // The edit: bytes [offset, offset + original.size()) of the original file become
  // `replacement`.
  std::uint64_t offset = 0;
  std::string original;
  std::string replacement;
  std::string op;  // operator name, see operators.h
  BugType bug_type = BugType::traditional;
  // Qualified name of the enclosing function ("tensorlite::Adam::step"); lambdas report
  // the function they are written in.
  std::string function;
};

// `text` (the whole original file) with the mutant's edit applied. Throws dlfl::Error
// "FILE: ..." when the file no longer holds `original` at `offset`.
std::string apply_mutant(const std::string& text, const Mutant& mutant);

}  // namespace dlfl::mutate
