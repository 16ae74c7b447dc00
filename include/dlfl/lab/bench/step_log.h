// The output of one reproduction step (configure, build, tests), kept for the user.
#pragma once

#include <filesystem>
#include <string>

namespace dlfl::bench {

// Writes `output` to log_dir/name (OUT/logs/BUG/NAME). Best effort: a log that cannot be
// written is skipped silently, because it must not discard the bug; an empty log_dir
// keeps nothing.
void keep_log(const std::filesystem::path& log_dir, const std::string& name, const std::string& output);

// The last `lines` lines of a failing step's output (at most 2,000 bytes), with control
// characters escaped so that it stays one CSV line in discarded.csv.
std::string output_tail(const std::string& output, std::size_t lines = 5);

}  // namespace dlfl::bench
