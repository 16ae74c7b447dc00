// Dotted key paths ("server.tls.port"): splitting, joining and wildcard matching.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace confeval {

// "a.b.c" -> {"a", "b", "c"}; "" -> {}.
std::vector<std::string> split_path(std::string_view path);

// The first `count` segments joined by '.'; "" when count is 0.
std::string join_path(const std::vector<std::string>& segments, std::size_t count);

// "a.b.c" -> "a.b"; a root key ("a") has parent "".
std::string_view parent_path(std::string_view path);

// "a.b.c" -> "c".
std::string_view last_segment(std::string_view path);

// Whether `path` matches `pattern`, where a "*" segment matches exactly one segment:
// "servers.*.port" matches "servers.web.port" but not "servers.port" or "servers.a.b.port".
bool path_matches(std::string_view pattern, std::string_view path);

}  // namespace confeval
