// Bug type names and applying a mutant's edit to a file's text.
#include "dlfl/lab/mutate/mutant.h"

#include <array>

#include "dlfl/error.h"

namespace dlfl::mutate {
namespace {

constexpr std::array<std::string_view, 7> kBugTypeNames = {"tensor", "training", "model",      "api",
                                                           "gpu",    "numerics", "traditional"};

}  // namespace

std::string_view to_string(BugType type) { return kBugTypeNames[static_cast<std::size_t>(type)]; }

std::optional<BugType> parse_bug_type(std::string_view name) {
  for (std::size_t i = 0; i < kBugTypeNames.size(); ++i)
    if (kBugTypeNames[i] == name) return static_cast<BugType>(i);
  return std::nullopt;
}

std::string apply_mutant(const std::string& text, const Mutant& mutant) {
  if (mutant.offset > text.size() || text.compare(mutant.offset, mutant.original.size(), mutant.original) != 0)
    throw Error(mutant.file, mutant.line,
                "no longer holds the text of mutant " + mutant.id + " ('" + mutant.original + "')");
  std::string out;
  out.reserve(text.size() + mutant.replacement.size());
  out.append(text, 0, mutant.offset);
  out += mutant.replacement;
  out.append(text, mutant.offset + mutant.original.size());
  return out;
}

}  // namespace dlfl::mutate
