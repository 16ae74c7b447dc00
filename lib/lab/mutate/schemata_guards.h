// Guards of a mutant schemata: for each mutant's edit, the code a switch can choose
// between with and without it — the smallest expression holding the edit (chosen by
// `?:`), else the smallest statement (chosen by if/else). Clang libTooling.
#pragma once

#include <clang/Tooling/CompilationDatabase.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlfl::mutate::detail {

// One edit of a file, by the file's real path.
struct EditSite {
  std::string path;
  std::uint64_t offset = 0, size = 0;
};

struct Guard {
  std::uint64_t begin = 0, end = 0;  // byte range in the original file, holding the edit
  bool statement = false;
  bool c_language = false;  // a C unit parses the edit: its file's switch must be C
};

// Parses `units` (compile commands from `db`, adjusted as every mutation pass does) and
// returns, per index into `edits`, its guard, or nullopt when none was found: an edit
// outside any function body, in a declaration statement only, in a macro expansion, in
// code none of the units parses. In C units an expression that is an lvalue is never a
// guard (C's `?:` yields none), so its statement is. Statements are guarded only
// where a statement may stand (in a block, or as the body of if/else, a loop, a case or
// a label), never a declaration; a statement's guard takes its `;` and, when the edit
// reaches further over blanks (a deleted line), the edit's whole range. `failed` gets
// the units clang could not parse.
std::vector<std::optional<Guard>> find_guards(const clang::tooling::CompilationDatabase& db,
                                              const std::vector<std::string>& units,
                                              const std::vector<EditSite>& edits,
                                              const std::vector<std::string>& extra_args,
                                              std::vector<std::string>& failed);

}  // namespace dlfl::mutate::detail
