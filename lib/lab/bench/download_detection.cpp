// Configure-time downloads of real projects (include/dlfl/lab/bench/download_detection.h).
#include "dlfl/lab/bench/download_detection.h"

#include <algorithm>
#include <fstream>
#include <regex>

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

std::string head_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string text(1 << 20, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

void add_unique(std::vector<std::string>& urls, std::string url) {
  while (!url.empty() && (url.back() == ')' || url.back() == '"' || url.back() == '\r')) url.pop_back();
  if (!url.empty() && url.front() == '"') url.erase(0, 1);
  if (!url.empty() && std::find(urls.begin(), urls.end(), url) == urls.end()) urls.push_back(std::move(url));
}

// Calls `read(path, text, cmake)` for the build's CMake files (CMakeLists.txt, *.cmake,
// and their configure_file templates such as a GoogleTest download's CMakeLists.txt.in)
// and the top .gitmodules: at most 2000 files, 1 MiB of each.
template <typename Read>
void read_build_files(const fs::path& source, Read read) {
  std::error_code ec;
  std::size_t files = 0;
  for (auto it = fs::recursive_directory_iterator(source, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator() && files < 2000; it.increment(ec)) {
    const fs::path& path = it->path();
    if (it->is_directory(ec)) {
      if (path.filename() == ".git") it.disable_recursion_pending();
      continue;
    }
    const std::string name = path.filename().string();
    const bool cmake = name.starts_with("CMakeLists.txt") || name.find(".cmake") != std::string::npos;
    if (!cmake && !(name == ".gitmodules" && path.parent_path() == source)) continue;
    ++files;
    read(head_of(path), cmake);
  }
}

}  // namespace

std::vector<std::string> configure_time_urls(const fs::path& source) {
  std::vector<std::string> urls;
  static const std::regex cmake_url(R"((?:GIT_REPOSITORY|URL)\s+("[^"]+"|[^\s)]+))", std::regex::icase);
  static const std::regex submodule_url(R"(^\s*url\s*=\s*(\S+))", std::regex::multiline);
  read_build_files(source, [&](const std::string& text, bool cmake) {
    const std::regex& pattern = cmake ? cmake_url : submodule_url;
    for (auto m = std::sregex_iterator(text.begin(), text.end(), pattern); m != std::sregex_iterator(); ++m)
      if ((*m)[1].str().find("://") != std::string::npos || (*m)[1].str().find('@') != std::string::npos)
        add_unique(urls, (*m)[1].str());
  });
  return urls;
}

std::vector<std::string> configure_time_refs(const fs::path& source) {
  std::vector<std::string> refs;
  static const std::regex cmake_tag(R"(GIT_TAG\s+("[^"$]+"|[^\s)$"]+))");
  static const std::regex submodule_branch(R"(^\s*branch\s*=\s*(\S+))", std::regex::multiline);
  static const std::regex ref_name(R"([A-Za-z0-9_][A-Za-z0-9._/-]*)");
  static const std::regex commit_id(R"([0-9a-fA-F]{7,40})");
  read_build_files(source, [&](const std::string& text, bool cmake) {
    const std::regex& pattern = cmake ? cmake_tag : submodule_branch;
    for (auto m = std::sregex_iterator(text.begin(), text.end(), pattern); m != std::sregex_iterator(); ++m) {
      std::string ref = (*m)[1].str();
      if (ref.size() >= 2 && ref.front() == '"') ref = ref.substr(1, ref.size() - 2);
      if (ref.size() <= 255 && std::regex_match(ref, ref_name) && !std::regex_match(ref, commit_id)) add_unique(refs, ref);
    }
  });
  return refs;
}

std::string download_urls(const std::string& output, const fs::path& source) {
  const std::vector<std::string> urls = configure_time_urls(source);
  std::vector<std::string> named;
  for (const auto& url : urls)
    if (output.find(url) != std::string::npos) named.push_back(url);
  static constexpr const char* kDownloadErrors[] = {
      "Could not resolve host", "Failed to clone", "unable to access", "Failed to connect",
      "error: downloading", "Build step for", "FetchContent", "ExternalProject", "fatal: repository"};
  const bool failed_download = !named.empty() || std::any_of(std::begin(kDownloadErrors), std::end(kDownloadErrors),
                                                             [&](const char* e) { return output.find(e) != std::string::npos; });
  if (!failed_download || urls.empty()) return "";
  std::string out;
  for (const auto& url : named.empty() ? urls : named) out += (out.empty() ? "" : ", ") + url;
  return out;
}

std::vector<std::string> url_map_environment(const std::map<std::string, std::string>& url_map) {
  // Git 2.38.1 and later refuse to clone a submodule from a local path unless the file
  // transport is allowed (CVE-2022-39253); the map names local clones, so allow it here,
  // and only where there is a map.
  std::vector<std::string> env{"GIT_CONFIG_COUNT=" + std::to_string(url_map.size() + 1),
                               "GIT_CONFIG_KEY_0=protocol.file.allow", "GIT_CONFIG_VALUE_0=always"};
  std::size_t i = 1;
  for (const auto& [url, local] : url_map) {
    env.push_back("GIT_CONFIG_KEY_" + std::to_string(i) + "=url." + local + ".insteadOf");
    env.push_back("GIT_CONFIG_VALUE_" + std::to_string(i) + "=" + url);
    ++i;
  }
  return env;
}

}  // namespace dlfl::bench
