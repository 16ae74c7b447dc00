// Key-path helpers: the flat key space is navigated by splitting on '.'.
#include "confeval/path.h"

namespace confeval {

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> segments;
  if (path.empty()) {
    return segments;
  }
  std::size_t begin = 0;
  while (true) {
    const std::size_t dot = path.find('.', begin);
    segments.emplace_back(path.substr(begin, dot - begin));
    if (dot == std::string_view::npos) {
      return segments;
    }
    begin = dot + 1;
  }
}

std::string join_path(const std::vector<std::string>& segments, std::size_t count) {
  std::string path;
  for (std::size_t i = 0; i < count && i < segments.size(); ++i) {
    if (i > 0) {
      path += '.';
    }
    path += segments[i];
  }
  return path;
}

std::string_view parent_path(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

std::string_view last_segment(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

bool path_matches(std::string_view pattern, std::string_view path) {
  const std::vector<std::string> want = split_path(pattern);
  const std::vector<std::string> have = split_path(path);
  if (want.size() != have.size()) {
    return false;
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] != "*" && want[i] != have[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace confeval
