// Man pages (roff, man(7) macros) for dlfl and each of its subcommands, generated from the
// command tree (command_tree.h) at build time: `dlfl --generate-man-pages DIR`.
#pragma once

#include <filesystem>
#include <string>

#include "command_tree.h"

namespace dlfl::cli {

// The page of `command` (dlfl-rank.1 for `dlfl rank`). `root` gives the SEE ALSO list;
// `version` is the page footer's source ("dlfl 0.1.0").
std::string man_page(const CommandInfo& command, const CommandInfo& root, const std::string& version);

// Writes DIR/PAGE.1 for every command of the tree (atomically, each), after removing the
// *.1 files DIR held, so that a removed command leaves no stale page. Creates DIR.
// Throws std::filesystem::filesystem_error or dlfl::Error when DIR cannot be written.
void write_man_pages(const CommandInfo& root, const std::string& version, const std::filesystem::path& dir);

}  // namespace dlfl::cli
