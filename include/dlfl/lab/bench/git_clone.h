// A user's git clone as `dlfl bugset reproduce` uses it: found by project name (any
// clone that holds the fix commits will do: a mirror, a fork, an offline copy), and read or checked out only through `git worktree`s of its own,
// so the user's checkout (its files, index and HEAD) is never touched.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace dlfl::bench {

struct GitResult {
  bool ok = false;
  std::string out;   // stdout (trailing line breaks removed)
  std::string what;  // when !ok: git's last error line, or how it ended
};

// Runs `git -C DIR ARGS...` (no shell) with the user's configuration but no pager,
// prompt, editor, hooks or LFS downloads. Throws dlfl::Error only when git cannot be started.
// `env` ("NAME=VALUE") is added, e.g. url_map_environment()'s URL rewriting.
GitResult run_git(const std::filesystem::path& dir, const std::vector<std::string>& args,
                  const std::vector<std::string>& env = {});

class GitClone {
 public:
  // The clone of `project` ("owner+repo", as a bug set names it) under `repos`: the
  // first git repository among repos/owner+repo, repos/owner/repo, repos/repo and repos
  // itself. Throws dlfl::Error naming `repos` when none is. A clone whose remotes do not
  // name owner/repo (a local mirror, a fork, an offline copy) is taken all the same, with
  // remote_warning() saying so: what makes it the right clone is that it holds the fix
  // commits, which the caller checks.
  static GitClone find(const std::filesystem::path& repos, const std::string& project);

  explicit GitClone(std::filesystem::path dir) : dir_(std::move(dir)) {}
  const std::filesystem::path& dir() const noexcept { return dir_; }
  // Why this clone may not be `project`'s own repository ("its remotes (URL) are not
  // owner/repo"), or "" when a remote names it or it has none.
  const std::string& remote_warning() const noexcept { return remote_warning_; }

  // The full id of `commit` (a hash or any revision), or nullopt when the clone lacks it.
  std::optional<std::string> resolve(const std::string& commit) const;
  // The first parent of a commit, or nullopt for a root commit.
  std::optional<std::string> parent(const std::string& commit) const;
  // Whether `path` (repository-relative) exists in `commit`'s tree.
  bool has_file(const std::string& commit, const std::string& path) const;
  // Fetch URLs of the clone's remotes (may be empty).
  std::vector<std::string> remote_urls() const;

  // `git worktree add --detach PATH COMMIT`; a work tree left at PATH by a killed run is
  // removed first. Registration changes are serialized (git locks them per clone).
  GitResult add_worktree(const std::filesystem::path& path, const std::string& commit) const;
  // `git worktree remove --force PATH` and `git worktree prune`: the clone's worktree
  // list is as before add_worktree. Never throws.
  void remove_worktree(const std::filesystem::path& path) const noexcept;

 private:
  std::filesystem::path dir_;
  std::string remote_warning_;
};

// Whether a remote URL names github.com-style owner/repo (https, ssh or scp syntax, with
// or without .git; case-insensitive): https://github.com/apache/mxnet.git ~ "apache+mxnet".
bool remote_names_project(const std::string& url, const std::string& project);

// Puts the work tree at `tree` at `commit`, clean (untracked and ignored files removed):
// a checkout in the tree a previous bug (or a killed run) left, so unchanged files keep
// their timestamps and the build stays warm; a new work tree of `clone` when there is
// none (or it is no longer registered).
GitResult check_out_clean(const GitClone& clone, const std::filesystem::path& tree, const std::string& commit);

// The checked-out work tree of a clone: removes itself (and its registration) on
// destruction. `path` is where it lives; empty when adding it failed.
class ScopedWorktree {
 public:
  ScopedWorktree(const GitClone& clone, std::filesystem::path path) : clone_(&clone), path_(std::move(path)) {}
  ~ScopedWorktree() { clone_->remove_worktree(path_); }
  ScopedWorktree(const ScopedWorktree&) = delete;
  ScopedWorktree& operator=(const ScopedWorktree&) = delete;
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  const GitClone* clone_;
  std::filesystem::path path_;
};

}  // namespace dlfl::bench
