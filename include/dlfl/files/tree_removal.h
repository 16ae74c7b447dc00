// Removing a directory tree that dlfl made, without ever following a symbolic link out of
// it: every tree dlfl removes (work trees, scratch directories, temporaries) goes through
// here, so a link planted where a tree was expected (OUT/work pointing at a home
// directory, a subdirectory swapped for a link while the removal runs) is unlinked or
// left alone, and what it points to is never touched.
#pragma once

#include <filesystem>
#include <system_error>

namespace dlfl::io {

enum class TreeRemoval {
  removed,  // `dir` and everything in it are gone
  absent,   // nothing was there
  link,     // `dir` itself is a symbolic link (or not a directory): left as it is
  failed,   // something could not be removed; `error` says what, the rest is gone
};

// Removes the directory `dir` and everything below it. `dir` is opened with
// O_NOFOLLOW | O_DIRECTORY relative to its parent (the parent path itself is the
// caller's: links above `dir` are followed as the caller named them), and each entry
// below is removed relative to its directory's descriptor: subdirectories are opened with
// O_NOFOLLOW, links and other files are unlinked, never followed. Best effort past a
// failure (the first error is kept in `error`). Never throws.
TreeRemoval remove_tree(const std::filesystem::path& dir, std::error_code& error) noexcept;

// remove_tree for cleanup paths that only need to try: the outcome is dropped.
inline void remove_tree_quietly(const std::filesystem::path& dir) noexcept {
  std::error_code ignored;
  (void)remove_tree(dir, ignored);
}

}  // namespace dlfl::io
