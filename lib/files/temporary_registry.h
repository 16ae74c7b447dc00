// The temporaries of AtomicFile and AtomicDirectory that are alive in this process, so a
// signal handler can remove them, and the removal of temporaries that dead processes
// left. Internal to lib/files.
#pragma once

#include <filesystem>
#include <string>

namespace dlfl::io::detail {

enum class TemporaryKind { file, directory };

// Records `path` as a live temporary; returns a slot for forget_temporary, or -1 when the
// registry is full or the path too long (the temporary is then only cleaned up by the
// next write to its target, see remove_stale_temporaries). Thread-safe.
int remember_temporary(const std::filesystem::path& path, TemporaryKind kind) noexcept;
// Forgets a slot (no-op for -1). Call after the temporary was renamed or removed.
void forget_temporary(int slot) noexcept;

// `.NAME.tmp-` for the target file name NAME, the prefix of its temporaries' names
// (PID-N follows). A NAME too long for the whole to fit NAME_MAX is cut and given a hash
// of the whole name, so the prefix stays one target's, and the same in every process.
std::string temporary_prefix(const std::string& name);

// Removes the siblings `.NAME.tmp-PID-N` of `target` whose process PID no longer exists:
// what a SIGKILL, a crash or a power cut left behind. Temporaries of live processes
// (including this one) are kept. Never throws; what cannot be removed stays.
void remove_stale_temporaries(const std::filesystem::path& target) noexcept;

}  // namespace dlfl::io::detail
