// `dlfl bugset import bugscpp`: a BugsC++ checkout (Suresoft-GLaDOS/bugscpp) read into
// manifest bugs (bugset.h), one per defect of each project's taxonomy entry.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/bugset.h"

namespace dlfl::eval {

// Reads DIR/bugscpp/taxonomy, or DIR itself when it holds the project folders: every
// folder with a meta.json, by name. Per defect (the n-th of meta.json's "defects"):
// id "<folder>#<id>", project = the folder name, category "traditional", title = the
// description, fix_commit = "hash"; files = the ground truth from patch/NNNN-buggy.patch
// (it turns the fix into the bug: its '+' lines are the lines the fix deletes, in buggy
// numbering, its '-' lines those the fix adds, in fixed numbering; a file it creates is one
// the fix deletes); `bugscpp` = the commands (bugscpp_command_line), cases, the patches
// NNNN-{common,split,buggy,fixed}.patch present and the files under extra/NNNN/.
// Throws dlfl::Error "FILE[:LINE]: what" when DIR holds no project, for malformed JSON
// or a missing/mistyped member of meta.json, a folder name that is not a project name
// (a letter or digit, then letters, digits, '.', '_', '+', '-'), a duplicate id, a case
// outside 1..num_cases, a missing buggy patch, a malformed patch, and any path of a
// patch or extra file that would leave the tree (absolute, "..") or is a symbolic link.
// Files are read within bounds, each refused before it is read when larger: a meta.json
// over kMaxMetaJsonBytes or nested deeper than io::kMaxJsonDepth, a patch or extra file
// over kMaxManifestLineBytes (it travels in the bug's manifest line).
std::vector<BugReport> import_bugscpp(const std::filesystem::path& dir);

// The largest meta.json read (16 MiB): BugsC++'s hold a project's few dozen defects in a
// few KB; the bound only keeps a planted gigabyte from being loaded and parsed.
inline constexpr std::size_t kMaxMetaJsonBytes = std::size_t{16} << 20;

// One BugsC++ command line made runnable outside its container: @DPP_PARALLEL_BUILD@
// becomes {jobs}, its other @DPP_...@ words are dropped (as BugsC++ drops them without a
// compilation-database tool, which also joins the words with single spaces),
// /home/workspace becomes {source}, and a `bash -c SCRIPT` / `sh -c SCRIPT` line becomes
// SCRIPT (unquoted as the container's exec splits it). nullopt for unbalanced quotes.
std::optional<std::string> bugscpp_command_line(std::string_view line);

}  // namespace dlfl::eval
