// Copying a source tree into an output tree that builds like a clean checkout of it:
// what `dlfl instrument` and the mutant schemata both write their rewritten files into.
#pragma once

#include <filesystem>
#include <set>
#include <string>

namespace dlfl::instrument::detail {

// A directory of build outputs: a CMake or ninja build tree, setuptools' build/ (with its
// temp.*, lib.*, bdist.* folders), dist/, *.egg-info and __pycache__.
bool is_build_output_directory(const std::filesystem::path& dir, const std::string& name);

// Objects, libraries and compiled Python: outputs of an earlier build of root.
bool is_build_output_file(const std::string& name);

// Copies root into out_dir, skipping build outputs, hidden entries, out_dir and build_dir
// (canonical paths) and the targets in `rewritten`. A copy newer than its original is
// left alone (its modification time too, so a build of out_dir stays incremental),
// except the `stale` targets: files an earlier run rewrote.
void copy_tree(const std::filesystem::path& root, const std::filesystem::path& out_dir,
               const std::filesystem::path& build_dir, const std::set<std::filesystem::path>& rewritten,
               const std::set<std::filesystem::path>& stale);

}  // namespace dlfl::instrument::detail
