// Progress of a real bug's test runs (include/dlfl/lab/bench/test_step_progress.h).
#include "dlfl/lab/bench/test_step_progress.h"

namespace dlfl::bench {

TestStepProgress::TestStepProgress(std::string label, std::function<void(const std::string&)> say,
                                   std::chrono::seconds interval)
    : label_(std::move(label)), say_(std::move(say)), interval_(interval) {}

std::string TestStepProgress::seconds() const {
  return std::to_string(
             std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started_).count()) +
         " s";
}

void TestStepProgress::start(std::size_t total) {
  std::lock_guard lock(mutex_);
  started_ = last_ = std::chrono::steady_clock::now();
  total_ = total;
  if (say_) say_(label_ + ": " + std::to_string(total) + " tests...");
}

void TestStepProgress::test_done(bool failed) {
  std::lock_guard lock(mutex_);
  ++done_;
  failed_ += failed;
  const auto now = std::chrono::steady_clock::now();
  if (!say_ || now - last_ < interval_) return;
  last_ = now;
  say_(label_ + ": " + std::to_string(done_) + " of " + std::to_string(total_) + " tests run, " +
       std::to_string(failed_) + " failing, elapsed " + seconds());
}

void TestStepProgress::finish() {
  std::lock_guard lock(mutex_);
  if (finished_ || !say_) return;
  finished_ = true;
  say_(label_ + ": " + std::to_string(done_) + " tests run in " + seconds() + ", " + std::to_string(failed_) +
       " failing");
}

}  // namespace dlfl::bench
