// A user's git clone, read and checked out through work trees (include/dlfl/lab/bench/git_clone.h).
#include "dlfl/lab/bench/git_clone.h"

#include <algorithm>
#include <cctype>

#include "dlfl/collect/process.h"
#include "dlfl/error.h"
#include "dlfl/files/tree_removal.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

// `git worktree add/remove/prune` write the clone's worktree list: one at a time.
std::mutex g_registration;

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string last_line(const std::string& text) {
  const std::string t = trimmed(text);
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

bool same_directory(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

// `dir` is the top of a work tree or a bare repository (not merely inside another
// repository, e.g. a home directory kept in git).
bool is_repository_root(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  const GitResult top = run_git(dir, {"rev-parse", "--show-toplevel"});
  if (top.ok) return same_directory(top.out, dir);
  const GitResult bare = run_git(dir, {"rev-parse", "--is-bare-repository"});
  if (!bare.ok || bare.out != "true") return false;
  const GitResult git_dir = run_git(dir, {"rev-parse", "--absolute-git-dir"});
  return git_dir.ok && same_directory(git_dir.out, dir);
}

}  // namespace

GitResult run_git(const fs::path& dir, const std::vector<std::string>& args, const std::vector<std::string>& env) {
  collect::ProcessSpec spec;
  // The user's hooks (post-checkout, LFS) must not run for our checkouts, nor LFS fetch.
  // Paths from a manifest are file names, never pathspec magic (":(top)", ":!x").
  spec.argv = {"git", "--literal-pathspecs", "-C", dir.string(), "-c", "core.hooksPath=/dev/null",
               "-c", "advice.detachedHead=false"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.env_set = {"GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "GIT_EDITOR=true", "LC_ALL=C", "GIT_LFS_SKIP_SMUDGE=1"};
  spec.env_set.insert(spec.env_set.end(), env.begin(), env.end());
  // Inherited from a hook or another tool, these would point git at another repository.
  spec.env_unset = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"};
  spec.merge_stderr = false;
  spec.stdout_limit = static_cast<std::size_t>(-1);
  const collect::ProcessResult r = collect::run_process(spec);
  GitResult out;
  out.ok = r.ok();
  out.out = trimmed(r.out);
  if (!out.ok) {
    out.what = last_line(r.err);
    if (out.what.empty()) out.what = collect::describe_end(r, spec.timeout);
  }
  return out;
}

GitResult check_out_clean(const GitClone& clone, const fs::path& tree, const std::string& commit) {
  if (fs::exists(tree / ".git")) {
    GitResult r = run_git(tree, {"checkout", "--force", "--quiet", "--detach", commit});
    if (r.ok) r = run_git(tree, {"clean", "-ffdxq"});
    if (r.ok) return r;
  }
  return clone.add_worktree(tree, commit);
}

bool remote_names_project(const std::string& url, const std::string& project) {
  const auto plus = project.find('+');
  if (plus == std::string::npos) return false;
  std::string path = lower(trimmed(url));
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (path.ends_with(".git")) path.resize(path.size() - 4);
  const std::string wanted = lower(project.substr(0, plus) + "/" + project.substr(plus + 1));
  if (!path.ends_with(wanted) || path.size() == wanted.size()) return false;
  const char before = path[path.size() - wanted.size() - 1];
  return before == '/' || before == ':';  // https://host/owner/repo, git@host:owner/repo
}

GitClone GitClone::find(const fs::path& repos, const std::string& project) {
  std::vector<fs::path> candidates;
  if (const auto plus = project.find('+'); plus != std::string::npos) {
    candidates = {repos / project, repos / project.substr(0, plus) / project.substr(plus + 1),
                  repos / project.substr(plus + 1)};
  } else {
    candidates = {repos / project};
  }
  candidates.push_back(repos);
  for (const auto& dir : candidates) {
    if (!is_repository_root(dir)) continue;
    GitClone clone(fs::absolute(dir).lexically_normal());
    const auto urls = clone.remote_urls();
    if (!urls.empty() && std::none_of(urls.begin(), urls.end(),
                                      [&](const std::string& u) { return remote_names_project(u, project); }))
      clone.remote_warning_ = clone.dir().string() + ": this clone's remotes (" + urls.front() +
                              (urls.size() > 1 ? ", ..." : "") + ") do not name " + project +
                              "'s repository; using it for the fix commits it holds";
    return clone;
  }
  throw Error(repos.string(), 0,
              "no git clone of " + project + " here (looked for " + candidates.front().filename().string() +
                  (candidates.size() > 2 ? ", " + candidates[1].parent_path().filename().string() + "/" +
                                               candidates[1].filename().string() + ", " +
                                               candidates[2].filename().string()
                                         : std::string()) +
                  " and the directory itself)");
}

std::optional<std::string> GitClone::resolve(const std::string& commit) const {
  if (commit.empty() || commit.front() == '-') return std::nullopt;  // never an option
  const GitResult r = run_git(dir_, {"rev-parse", "--verify", "--quiet", "--end-of-options", commit + "^{commit}"});
  if (!r.ok || r.out.empty()) return std::nullopt;
  return r.out;
}

std::optional<std::string> GitClone::parent(const std::string& commit) const {
  return resolve(commit + "^1");
}

bool GitClone::has_file(const std::string& commit, const std::string& path) const {
  return run_git(dir_, {"cat-file", "-e", commit + ":" + path}).ok;
}

std::vector<std::string> GitClone::remote_urls() const {
  const GitResult r = run_git(dir_, {"config", "--get-regexp", "^remote\\..*\\.url$"});
  std::vector<std::string> urls;
  if (!r.ok) return urls;  // no remote at all
  std::size_t pos = 0;
  while (pos < r.out.size()) {
    std::size_t nl = r.out.find('\n', pos);
    if (nl == std::string::npos) nl = r.out.size();
    const std::string line = r.out.substr(pos, nl - pos);
    if (const auto space = line.find(' '); space != std::string::npos) urls.push_back(line.substr(space + 1));
    pos = nl + 1;
  }
  return urls;
}

GitResult GitClone::add_worktree(const fs::path& path, const std::string& commit) const {
  remove_worktree(path);
  const std::lock_guard lock(g_registration);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  return run_git(dir_, {"worktree", "add", "--detach", "--force", path.string(), commit});
}

void GitClone::remove_worktree(const fs::path& path) const noexcept {
  try {
    const std::lock_guard lock(g_registration);
    if (path.empty()) return;
    auto registered = [&] {
      const GitResult list = run_git(dir_, {"worktree", "list", "--porcelain"});
      return list.ok && (list.out + "\n").find("worktree " + path.string() + "\n") != std::string::npos;
    };
    if (registered()) (void)run_git(dir_, {"worktree", "remove", "--force", "--force", path.string()});
    io::remove_tree_quietly(path);
    // Still registered (its directory was already gone, e.g. a killed run's): prune,
    // which also drops the user's own entries whose directories are gone, so only then.
    if (registered()) (void)run_git(dir_, {"worktree", "prune"});
  } catch (...) {
    // Cleanup is best effort: `git worktree prune` in the clone removes what is left.
  }
}

}  // namespace dlfl::bench
