// Configure-time downloads of a real project's build (CMake FetchContent and
// ExternalProject, git submodules): which URLs a failed configure needed, so that a
// bug is discarded with the URLs to map to local clones instead of a bare exit status.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace dlfl::bench {

// The URLs the tree's build may download at configure time: GIT_REPOSITORY and URL
// arguments in its CMakeLists.txt and *.cmake files, and `url =` lines of .gitmodules,
// in the order found, each once. Reads at most 2000 files and 1 MiB of each; never throws.
std::vector<std::string> configure_time_urls(const std::filesystem::path& source);

// The branch or tag names the tree's build asks its downloads for: GIT_TAG arguments
// (quoted or not; not commit ids, nor ones made of variables) and `branch =` lines of
// .gitmodules, in the order found, each once. Same bounds as configure_time_urls; never throws.
std::vector<std::string> configure_time_refs(const std::filesystem::path& source);

// When the failed configure's `output` shows a download failing (a URL of
// configure_time_urls named in it, or git's / CMake's download errors), those URLs as
// one string ("URL1, URL2"); else "".
std::string download_urls(const std::string& output, const std::filesystem::path& source);

// "NAME=VALUE" environment entries that make git fetch each mapped URL from its local
// copy (git's `url.<base>.insteadOf`, through GIT_CONFIG_COUNT/KEY_n/VALUE_n): a
// FetchContent or ExternalProject GIT_REPOSITORY and a submodule then clone offline.
// It also allows git's file transport (protocol.file.allow), which submodule clones from
// local paths need since git 2.38.1.
std::vector<std::string> url_map_environment(const std::map<std::string, std::string>& url_map);

}  // namespace dlfl::bench
