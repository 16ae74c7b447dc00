// Progress of a collection run: a bar redrawn in place on a terminal, plain lines in logs.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace dlfl::collect {

// Called by the collector from its worker threads; implementations serialize.
class ProgressReporter {
 public:
  virtual ~ProgressReporter() = default;
  virtual void start(std::size_t total) = 0;
  // One test finished; `failed` counts it among the failures so far.
  virtual void test_done(bool failed) = 0;
  // An information line (what runs, with which backend); shown above the bar.
  virtual void note(std::string_view line) = 0;
  // Ends the progress display (clears the bar).
  virtual void finish() = 0;
};

enum class ProgressStyle : unsigned char {
  none,   // --quiet
  plain,  // a line at every 10 % of the tests and at least every 10 s: logs, CI
  bar,    // `[=====>    ] 45/150 tests  3 failing  ETA 0:12`, redrawn in place (\r)
};

// The style for a stream: bar when `fd` is a terminal, plain otherwise.
ProgressStyle progress_style_for(int fd);

// Writes to `out` (which must outlive the reporter). `width` is the bar's line width in
// columns (0: the terminal width of stderr, else 80). `clock` is for tests.
std::unique_ptr<ProgressReporter> make_progress(ProgressStyle style, std::ostream& out, std::size_t width = 0,
                                                std::chrono::steady_clock::time_point (*clock)() = nullptr);

// "0:07", "1:02:03".
std::string format_duration(double seconds);

}  // namespace dlfl::collect
