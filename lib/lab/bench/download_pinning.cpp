// Configure-time downloads pinned to a bug's date (include/dlfl/lab/bench/download_pinning.h).
#include "dlfl/lab/bench/download_pinning.h"

#include <algorithm>

#include "dlfl/error.h"
#include "dlfl/lab/bench/git_clone.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

bool has_ref(const fs::path& repo, const std::string& ref) {
  return run_git(repo, {"show-ref", "--verify", "--quiet", ref}).ok;
}

// The last first-parent commit of `rev` no later than `date`; its oldest first-parent
// commit when there is none that old (`older` is then false).
std::string as_of(const fs::path& repo, const std::string& rev, const std::string& date, bool& older) {
  const GitResult r = run_git(repo, {"rev-list", "-1", "--first-parent", "--before=" + date, rev, "--"});
  older = r.ok && !r.out.empty();
  if (older) return r.out;
  const GitResult oldest = run_git(repo, {"rev-list", "--first-parent", "--max-parents=0", rev, "--"});
  if (!oldest.ok || oldest.out.empty()) return "";
  return oldest.out.substr(0, oldest.out.find('\n'));
}

}  // namespace

std::string PinnedDownload::describe() const {
  std::string out = url + ":";
  for (std::size_t i = 0; i < refs.size(); ++i)
    out += (i ? ", " : " ") + refs[i].first + "=" + refs[i].second.substr(0, 12);
  return out + " (" + rule + ")";
}

PinnedUrlMap pin_downloads(const std::map<std::string, std::string>& url_map,
                           const std::map<std::string, std::string>& url_pin, const std::string& date,
                           const std::vector<std::string>& requested, const fs::path& dir) {
  PinnedUrlMap out;
  std::size_t index = 0;
  for (const auto& entry : url_map) {
    // Named references, not structured bindings: clang 14 cannot capture those in a lambda.
    const std::string& url = entry.first;
    const std::string& clone = entry.second;
    PinnedDownload pin{url, clone, "none", {}};
    const auto chosen = url_pin.find(url);
    if (chosen != url_pin.end() && chosen->second == "none") {
      out.url_map[url] = clone;
      out.pins.push_back(std::move(pin));
      continue;
    }
    const auto fail = [&](const std::string& what) {
      throw Error("pinning " + url + " to the bug's date: its url_map clone " + clone + " " + what);
    };
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path repo = dir / ("download-" + std::to_string(index++) + ".git");
    fs::remove_all(repo, ec);
    if (const GitResult g = run_git(dir, {"clone", "--bare", "--shared", "--quiet", "--", clone, repo.string()}); !g.ok)
      fail("cannot be cloned: " + g.what);
    std::string target;  // for the default branch and the names the clone lacks
    bool older = true;
    if (chosen != url_pin.end()) {
      const GitResult r = run_git(repo, {"rev-parse", "--verify", "--quiet", chosen->second + "^{commit}"});
      if (!r.ok || r.out.empty()) fail("has no commit '" + chosen->second + "' (the recipe's url_pin)");
      target = r.out;
      pin.rule = "url_pin " + chosen->second;
    } else {
      target = as_of(repo, "HEAD", date, older);
      if (target.empty()) fail("has no commit on its default branch");
      pin.rule = older ? "as of " + date : "no commit as old as " + date + ": its first";
    }
    const GitResult head = run_git(repo, {"symbolic-ref", "--short", "HEAD"});
    std::vector<std::string> names{"master", "main"};
    if (head.ok && !head.out.empty()) names.push_back(head.out);
    for (const auto& name : requested)
      if (name != "HEAD" && !has_ref(repo, "refs/heads/" + name) && !has_ref(repo, "refs/tags/" + name))
        names.push_back(name);
    for (const auto& name : names) {
      if (std::any_of(pin.refs.begin(), pin.refs.end(), [&](const auto& r) { return r.first == name; })) continue;
      if (!run_git(repo, {"check-ref-format", "refs/heads/" + name}).ok) continue;
      const std::string ref = "refs/heads/" + name;
      std::string commit = target;
      if (has_ref(repo, ref)) {
        // A moving branch the clone has: as of the date on that branch itself. Its tip
        // stays reachable under a tag, for a build that names a later commit by id.
        if (chosen == url_pin.end()) {
          bool branch_older = true;
          commit = as_of(repo, ref, date, branch_older);
        }
        (void)run_git(repo, {"update-ref", "refs/tags/dlfl-unpinned/" + name, ref});
      }
      if (commit.empty()) continue;
      if (const GitResult g = run_git(repo, {"update-ref", ref, commit}); !g.ok) fail("could not be pinned: " + g.what);
      pin.refs.emplace_back(name, commit);
    }
    out.url_map[url] = repo.string();
    out.pins.push_back(std::move(pin));
  }
  return out;
}

}  // namespace dlfl::bench
