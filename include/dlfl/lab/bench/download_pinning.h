// Configure-time downloads pinned to a bug's date. A project of 2016 that clones
// GoogleTest's `master` at configure time built against GoogleTest as it was in 2016;
// a local clone of today has no `master` (it is `main` now) and its `main` no longer
// builds with that project. So `bugset reproduce` fetches each url_map target through a
// pinned copy, as a Docker image of the time would have had it: the moving branches
// (master, main, the default branch) and the names the build asks for that the clone
// lacks point at the clone's commit as of the buggy commit's date. Tags and other
// branches stay as they are. A recipe's url_pin names another revision, or "none".
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dlfl::bench {

struct PinnedDownload {
  std::string url;    // the URL the build downloads (a url_map key)
  std::string clone;  // the local clone it is fetched from (the url_map value)
  // How the names were resolved: "as of DATE", "url_pin REVISION", or "none" (the clone
  // as it is; `refs` is then empty).
  std::string rule;
  // The branch names moved or created, each with the full commit id it now names.
  std::vector<std::pair<std::string, std::string>> refs;
  // One line for logs and results: "URL: master=0123456789ab, main=0123456789ab (as of DATE)".
  std::string describe() const;
};

struct PinnedUrlMap {
  // URL -> the repository git fetches it from: the pinned copy, or the clone for "none".
  std::map<std::string, std::string> url_map;
  std::vector<PinnedDownload> pins;  // one per url_map entry, in url_map's order
};

// Makes, under `dir` (created; earlier copies there are replaced), one bare copy per
// url_map entry that shares the clone's objects (git clone --shared: seconds, no disk),
// and moves or creates its moving branches and the `requested` names it lacks
// (download_detection.h's configure_time_refs) as described above. `date` is an ISO 8601
// time (the buggy commit's committer date). A clone without a commit that old gives its
// oldest first-parent commit, and the rule says so. Throws dlfl::Error naming the URL and
// clone when the clone is no git repository or lacks a url_pin revision.
PinnedUrlMap pin_downloads(const std::map<std::string, std::string>& url_map,
                           const std::map<std::string, std::string>& url_pin, const std::string& date,
                           const std::vector<std::string>& requested, const std::filesystem::path& dir);

}  // namespace dlfl::bench
