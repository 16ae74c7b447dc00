// Shared pieces of the subcommands: output to a file or stdout, warnings, enum options.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace dlfl::cli {

// Exit codes: 0 success, 1 runtime failure (reserved), 2 bad input or usage.
inline constexpr int kExitBadInput = 2;

// Writes through `emit` to stdout (path empty or "-") or atomically to the file.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& emit);

// "dlfl: warning: ..." on stderr (escaped as by printable()).
void warn(std::string_view message);

// SIGINT/SIGTERM set flag() while the scope lives (long runs: finish nothing new, kill the
// running builds and tests, keep what is stored, write the outputs; the next run
// resumes). The flag is cleared when the scope starts.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
  static const std::atomic<bool>& flag();
};

// The end of a resumable run (`dlfl bench`, `dlfl bugset reproduce`) on stderr: where
// its tables are, how many `unit` ("faults", "bugs") an earlier run finished and how many
// are pending; then, when interrupted, exit 130 (the status of a run stopped by SIGINT,
// not bad input).
void report_resumable_run(const std::filesystem::path& out_dir, std::size_t resumed, std::size_t pending,
                          bool interrupted, std::string_view unit);

// `message` safe to print as one terminal line: control bytes (CR, LF, ESC, ...) and
// bytes that are not valid UTF-8 become \r, \n, \t or \xNN; valid UTF-8 is kept.
// Error messages quote pieces of the input, which may be binary or hold CRs that would
// overwrite the line or corrupt a log.
std::string printable(std::string_view message);

// Prints "dlfl: error: MESSAGE" (printable) on stderr.
void print_error(std::string_view message);

}  // namespace dlfl::cli
