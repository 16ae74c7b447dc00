// What names a bug manifest may hold. A manifest is third-party data (imported from a
// public bug set, written by a colleague), and its project names, ids and file paths
// become parts of directories, command lines and checkouts: each is checked against a
// strict shape before anything uses it (docs/reliability.md, "Threat model").
#pragma once

#include <string>
#include <string_view>

namespace dlfl::eval {

// A project name: a letter or digit, then up to 127 letters, digits, '.', '_', '-', '+'
// (Denchmark's "owner+repo", BugsC++'s "yaml_cpp"), with no ".." anywhere (so no part of
// owner+repo is ".."). No '/', no blank, nothing the shell reads specially.
bool is_valid_project_name(std::string_view name) noexcept;

// A bug id: a letter or digit, then up to 199 letters, digits, '.', '_', '-', '+', '#'
// ("apache+incubator-mxnet#10011"), with no ".." anywhere.
bool is_valid_bug_id(std::string_view id) noexcept;

// Why `path` is not a file path relative to a repository's root that stays inside it, or
// "" when it is one: not empty, not absolute, no "." or ".." component, no empty component
// ("a//b", a trailing '/'), no control character, at most 4096 bytes.
std::string repository_path_problem(std::string_view path);

}  // namespace dlfl::eval
