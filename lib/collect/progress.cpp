// Progress reporters: a terminal bar (tests done/total, failures, ETA) and plain lines.
#include "dlfl/collect/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <fmt/format.h>
#include <mutex>
#include <string>

namespace dlfl::collect {
namespace {

using Clock = std::chrono::steady_clock;

// Shared counting: done/total, failures, elapsed time and the ETA from the mean pace.
class Counter {
 public:
  explicit Counter(Clock::time_point (*clock)()) : clock_(clock ? clock : &Clock::now) {}
  void start(std::size_t total) {
    total_ = total;
    started_ = clock_();
  }
  void done(bool failed) {
    ++done_;
    if (failed) ++failing_;
  }
  double elapsed() const { return std::chrono::duration<double>(clock_() - started_).count(); }
  // Tests run in parallel, so the mean time per finished test already reflects -j.
  std::string eta() const {
    if (done_ == 0 || done_ >= total_) return "--:--";
    return format_duration(elapsed() / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  }
  std::size_t total_ = 0, done_ = 0, failing_ = 0;
  Clock::time_point (*clock_)();
  Clock::time_point started_{};
};

class NoProgress final : public ProgressReporter {
 public:
  void start(std::size_t) override {}
  void test_done(bool) override {}
  void note(std::string_view) override {}
  void finish() override {}
};

class PlainProgress final : public ProgressReporter {
 public:
  PlainProgress(std::ostream& out, Clock::time_point (*clock)()) : out_(out), counter_(clock) {}
  void start(std::size_t total) override {
    std::lock_guard lock(mutex_);
    counter_.start(total);
  }
  void test_done(bool failed) override {
    std::lock_guard lock(mutex_);
    counter_.done(failed);
    const std::size_t decile = counter_.total_ ? counter_.done_ * 10 / counter_.total_ : 10;
    const double now = counter_.elapsed();
    if (decile > last_decile_ || now - last_print_ >= 10.0 || counter_.done_ == counter_.total_) {
      last_decile_ = decile;
      last_print_ = now;
      out_ << fmt::format("dlfl collect: {}/{} tests done ({}%), {} failing, {} elapsed, ETA {}\n", counter_.done_,
                          counter_.total_, counter_.total_ ? counter_.done_ * 100 / counter_.total_ : 100,
                          counter_.failing_, format_duration(now), counter_.eta())
           << std::flush;
    }
  }
  void note(std::string_view line) override {
    std::lock_guard lock(mutex_);
    out_ << "dlfl collect: " << line << '\n' << std::flush;
  }
  void finish() override {}

 private:
  std::ostream& out_;
  std::mutex mutex_;
  Counter counter_;
  std::size_t last_decile_ = 0;
  double last_print_ = 0;
};

class BarProgress final : public ProgressReporter {
 public:
  BarProgress(std::ostream& out, std::size_t width, Clock::time_point (*clock)())
      : out_(out), width_(width), counter_(clock) {}
  void start(std::size_t total) override {
    std::lock_guard lock(mutex_);
    counter_.start(total);
    draw();
  }
  void test_done(bool failed) override {
    std::lock_guard lock(mutex_);
    counter_.done(failed);
    // At most ~10 redraws a second: thousands of fast tests must not flood the terminal.
    const double now = counter_.elapsed();
    if (now - last_draw_ >= 0.1 || counter_.done_ == counter_.total_) draw();
  }
  void note(std::string_view line) override {
    std::lock_guard lock(mutex_);
    out_ << "\r\033[K" << line << '\n';
    if (drawn_) draw();
    out_ << std::flush;
  }
  void finish() override {
    std::lock_guard lock(mutex_);
    if (drawn_) out_ << "\r\033[K" << std::flush;
    drawn_ = false;
  }

 private:
  void draw() {
    last_draw_ = counter_.elapsed();
    const std::string right =
        fmt::format(" {}/{} tests  {} failing  ETA {}", counter_.done_, counter_.total_, counter_.failing_, counter_.eta());
    // `[` bar `]` then the counters; the bar takes what is left, at least 10 columns.
    const std::size_t bar = width_ > right.size() + 12 ? width_ - right.size() - 3 : 10;
    const std::size_t filled = counter_.total_ ? bar * counter_.done_ / counter_.total_ : bar;
    std::string line = "\r\033[K[";
    line.append(filled, '=');
    if (filled < bar) {
      line += '>';
      line.append(bar - filled - 1, ' ');
    }
    line += ']';
    line += right;
    out_ << line << std::flush;
    drawn_ = true;
  }
  std::ostream& out_;
  std::size_t width_;
  std::mutex mutex_;
  Counter counter_;
  double last_draw_ = -1;
  bool drawn_ = false;
};

std::size_t terminal_width() {
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) return ws.ws_col - 1;
  return 79;
}

}  // namespace

ProgressStyle progress_style_for(int fd) { return ::isatty(fd) ? ProgressStyle::bar : ProgressStyle::plain; }

std::unique_ptr<ProgressReporter> make_progress(ProgressStyle style, std::ostream& out, std::size_t width,
                                                Clock::time_point (*clock)()) {
  switch (style) {
    case ProgressStyle::none:
      return std::make_unique<NoProgress>();
    case ProgressStyle::plain:
      return std::make_unique<PlainProgress>(out, clock);
    case ProgressStyle::bar:
      return std::make_unique<BarProgress>(out, width ? width : terminal_width(), clock);
  }
  return std::make_unique<NoProgress>();
}

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  const long long h = total / 3600, m = total / 60 % 60, s = total % 60;
  return h > 0 ? fmt::format("{}:{:02}:{:02}", h, m, s) : fmt::format("{}:{:02}", m, s);
}

}  // namespace dlfl::collect
