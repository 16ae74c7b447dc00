// Path glob matching with `*`, `?` and `**` (no character classes: paths rarely need them).
#include "dlfl/lab/mutate/glob.h"

namespace dlfl::mutate {

bool glob_match(std::string_view glob, std::string_view path) {
  // Backtracking matcher; globs are short, so the worst case does not matter.
  if (glob.empty()) return path.empty();
  if (glob.starts_with("**")) {
    std::string_view rest = glob.substr(2);
    // "**/" also matches no directory at all: "**/x.h" matches "x.h".
    if (rest.starts_with('/') && glob_match(rest.substr(1), path)) return true;
    for (std::size_t i = 0; i <= path.size(); ++i)
      if (glob_match(rest, path.substr(i))) return true;
    return false;
  }
  if (glob.front() == '*') {
    for (std::size_t i = 0; i <= path.size(); ++i) {
      if (glob_match(glob.substr(1), path.substr(i))) return true;
      if (i < path.size() && path[i] == '/') break;
    }
    return false;
  }
  if (path.empty()) return false;
  if (glob.front() == '?' ? path.front() == '/' : glob.front() != path.front()) return false;
  return glob_match(glob.substr(1), path.substr(1));
}

}  // namespace dlfl::mutate
