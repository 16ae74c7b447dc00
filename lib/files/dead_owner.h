// Names that carry their owner's process id, PREFIX PID-SUFFIX, and whether that owner is
// gone: how the scratch directories of collection runs and the temporaries of atomic
// outputs that a SIGKILL, a crash or a power cut left behind are told from those in use.
// Internal to lib/files.
#pragma once

#include <filesystem>
#include <string_view>

namespace dlfl::io::detail {

// Whether NAME is PREFIX, a process id, '-' and a non-empty SUFFIX of `suffix_chars` only,
// and that process is another one that no longer exists: kill(PID, 0) fails with ESRCH
// (alive, or not ours to signal: EPERM, means in use). Never throws.
bool owned_by_dead_process(std::string_view name, std::string_view prefix, std::string_view suffix_chars) noexcept;

// Removes (recursively) the entries of DIR named so; with `directories_only`, only
// directories. What cannot be removed stays. Never throws.
void remove_owned_by_dead_processes(const std::filesystem::path& dir, std::string_view prefix,
                                    std::string_view suffix_chars, bool directories_only) noexcept;

}  // namespace dlfl::io::detail
