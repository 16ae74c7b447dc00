// Names that carry their owner's process id, PREFIX PID-SUFFIX, and the one place that
// decides whether what such a name holds was abandoned: the temporaries of atomic outputs
// (their process is gone) and runs' scratch directories (their lock is free). Internal to
// lib/files.
#pragma once

#include <filesystem>
#include <string_view>

namespace dlfl::io::detail {

// Whether NAME is PREFIX, a process id, '-' and a non-empty SUFFIX of `suffix_chars` only.
bool named_with_owner(std::string_view name, std::string_view prefix, std::string_view suffix_chars) noexcept;

// Whether NAME is named_with_owner and that process is another one that no longer exists:
// kill(PID, 0) fails with ESRCH (alive, or not ours to signal: EPERM, means in use).
// Never throws.
bool owned_by_dead_process(std::string_view name, std::string_view prefix, std::string_view suffix_chars) noexcept;

// Removes the entries of DIR named so whose process is gone and that belong to this
// process's effective uid (never another user's); with `directories_only`, only
// directories. Directories are removed without following links. What cannot be removed
// stays. Never throws.
void remove_owned_by_dead_processes(const std::filesystem::path& dir, std::string_view prefix,
                                    std::string_view suffix_chars, bool directories_only) noexcept;

// Removes the directories of DIR named so (the PID is not consulted) that belong to this
// process's effective uid and hold a regular file `lock_name` of that uid on which
// flock(LOCK_EX | LOCK_NB) succeeds: their owner, which held the lock for its life, is
// gone. Without such a file a directory stays. Never throws.
void remove_abandoned_locked_directories(const std::filesystem::path& dir, std::string_view prefix,
                                         std::string_view suffix_chars, std::string_view lock_name) noexcept;

}  // namespace dlfl::io::detail
