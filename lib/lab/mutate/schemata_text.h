// The text of a mutant schemata file: every mutant's edit compiled in beside the original
// code, each behind a switch read once from an environment variable (Untch, Offutt and
// Harrold, ISSTA 1993: one build for all mutants). No Clang here: the guards (which
// expression or statement holds each edit) come from schemata_guards.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dlfl::mutate::detail {

// One mutant to compile in, with the code its switch chooses between.
struct GuardedEdit {
  std::uint32_t number = 0;  // the switch value that activates it (> 0)
  // The mutant's edit: bytes [offset, offset + original.size()) become `replacement`.
  std::uint64_t offset = 0;
  std::string original, replacement;
  // The guarded code, holding the edit: an expression (chosen by `?:`) or a statement
  // (chosen by if/else). Byte offsets into the original file, end exclusive.
  std::uint64_t guard_begin = 0, guard_end = 0;
  bool statement = false;
};

// A byte range of the rewritten text.
using TextRange = std::pair<std::size_t, std::size_t>;

struct SchemataText {
  std::string text;
  // Per mutant number: its own alternative (`switch == N ? (...) :` or `if (switch == N)
  // { ... } else`) in `text`, and the whole guarded code it shares with the mutants whose
  // guards overlap it: a compiler error inside the first is the mutant's; inside the
  // second but in no alternative, the place cannot hold a switch and every mutant there
  // is dropped.
  std::map<std::uint32_t, TextRange> alternative;
  std::map<std::uint32_t, TextRange> cluster;
  // Mutants left out: guards that overlap without nesting, or edits not inside their guard
  // or not matching the file.
  std::vector<std::uint32_t> unguardable;
};

// The language of a schemata file's switch: C++ (`::dlfl_schemata::mutant()`, read once
// thread-safely) or C (`dlfl_schemata_mutant()`, a static function, also valid C++: for
// files that C units parse, headers included from both too).
enum class SwitchLanguage { cpp, c };

// The first lines of every schemata file: the switch, which reads `switch_variable` once
// (an integer; unset, empty or 0 = the original program), then `#line 1 "ORIGINAL_PATH"`
// so that line numbers and __FILE__ stay the original's.
std::string schemata_prologue(std::string_view switch_variable, std::string_view original_path,
                              SwitchLanguage language = SwitchLanguage::cpp);

// `original` with the prologue and every edit compiled in. Guards that overlap are merged
// into their outermost one; each mutant's alternative is that outermost code with its
// own edit applied. The original code comes last in each choice, after `#line N` when an
// alternative spans lines, so the original keeps its line numbers. With no active
// mutant the program computes exactly what the original does (the switch is one call
// and a comparison per guarded place).
SchemataText rewrite_schemata(const std::string& original, std::string_view original_path,
                              std::vector<GuardedEdit> edits, std::string_view switch_variable,
                              SwitchLanguage language = SwitchLanguage::cpp);

}  // namespace dlfl::mutate::detail
