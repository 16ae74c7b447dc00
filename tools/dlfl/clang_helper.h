// The commands that need Clang (instrument, callgraph, mutate, bench) run in a second
// executable, dlfl-clang, beside dlfl: linking libLLVM and libclang-cpp cost every start of
// dlfl ~15 ms in the dynamic loader, which `dlfl collect`, `rank`, `merge`...
// should not pay. dlfl-clang is the whole dlfl, built with Clang; dlfl parses a Clang
// command's arguments (the same definitions) and then becomes dlfl-clang.
#pragma once

#include <string_view>

namespace dlfl::cli {

// Remembers main's argv (null-terminated, alive for the whole run) for run_in_clang_helper.
void set_command_line(char** argv);

// In a dlfl built with Clang: replaces this process (execv) with the dlfl-clang beside
// /proc/self/exe, given this process's own arguments, so exit status, output and signals
// are that of the command. Throws dlfl::Error naming the path looked at when it is missing
// or cannot be run. Returns only in a dlfl built without Clang, which has no helper.
void run_in_clang_helper(std::string_view command);

}  // namespace dlfl::cli
