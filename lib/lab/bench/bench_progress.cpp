// The bench progress display (include/dlfl/lab/bench/bench_progress.h).
#include "dlfl/lab/bench/bench_progress.h"

#include <fmt/format.h>

#include <mutex>
#include <string>

namespace dlfl::bench {
namespace {

class Progress final : public BenchProgress {
 public:
  Progress(collect::ProgressStyle style, std::ostream& out, std::chrono::steady_clock::time_point (*clock)())
      : style_(style), out_(out), clock_(clock ? clock : &std::chrono::steady_clock::now) {}

  void start(std::size_t total) override {
    const std::lock_guard lock(mutex_);
    total_ = total;
    started_ = clock_();
    draw();
  }

  void fault_done(bool kept, std::string_view label) override {
    const std::lock_guard lock(mutex_);
    ++done_;
    kept_ += kept;
    if (style_ == collect::ProgressStyle::plain) {
      out_ << fmt::format("[{}/{}] {} ({} kept, ETA {})\n", done_, total_, label, kept_, eta()) << std::flush;
      return;
    }
    draw();
  }

  void note(std::string_view line) override {
    const std::lock_guard lock(mutex_);
    if (style_ == collect::ProgressStyle::none) return;
    clear();
    out_ << line << '\n';
    draw();
  }

  void finish() override {
    const std::lock_guard lock(mutex_);
    clear();
    out_ << std::flush;
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(clock_() - started_).count(); }
  std::string eta() const {
    if (done_ == 0) return "?";
    return collect::format_duration(elapsed() / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  }
  void clear() {
    if (style_ == collect::ProgressStyle::bar && drawn_) out_ << '\r' << std::string(79, ' ') << '\r';
    drawn_ = false;
  }
  void draw() {
    if (style_ != collect::ProgressStyle::bar || total_ == 0) return;
    constexpr std::size_t width = 24;
    const std::size_t filled = done_ * width / total_;
    std::string bar(filled, '=');
    if (filled < width) bar += '>' + std::string(width - filled - 1, ' ');
    out_ << '\r'
         << fmt::format("[{}] {}/{} faults  {} kept  {} elapsed  ETA {}", bar, done_, total_, kept_,
                        collect::format_duration(elapsed()), eta())
         << std::flush;
    drawn_ = true;
  }

  collect::ProgressStyle style_;
  std::ostream& out_;
  std::chrono::steady_clock::time_point (*clock_)();
  std::mutex mutex_;
  std::chrono::steady_clock::time_point started_{};
  std::size_t total_ = 0, done_ = 0, kept_ = 0;
  bool drawn_ = false;
};

}  // namespace

std::unique_ptr<BenchProgress> make_bench_progress(collect::ProgressStyle style, std::ostream& out,
                                                   std::chrono::steady_clock::time_point (*clock)()) {
  return std::make_unique<Progress>(style, out, clock);
}

}  // namespace dlfl::bench
