// CheckAhead: see check_ahead.h.
#include "check_ahead.h"

#include <algorithm>

namespace dlfl::io {

CheckAhead::CheckAhead(std::size_t n, std::size_t step, std::size_t lead, std::function<void(std::size_t)> check)
    : n_(n), step_(std::max<std::size_t>(step, 1)), lead_(std::max<std::size_t>(lead, 1)), check_(std::move(check)),
      thread_([this] { run(); }) {}

CheckAhead::~CheckAhead() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void CheckAhead::run() {
  if (n_ == 0) return;
  for (std::size_t end = std::min(n_, step_);; end = std::min(n_, end + step_)) {
    {
      std::unique_lock lock(mutex_);
      // Past the lead: wait for the consumer to catch up.
      changed_.wait(lock, [&] { return stop_ || end <= wanted_ + lead_ * step_; });
      if (stop_) return;
    }
    try {
      check_(end);
    } catch (...) {
      const std::lock_guard lock(mutex_);
      failure_ = std::current_exception();
      changed_.notify_all();
      return;
    }
    {
      const std::lock_guard lock(mutex_);
      checked_ = end;
    }
    changed_.notify_all();
    if (end >= n_) return;
  }
}

void CheckAhead::wait_through(std::size_t end) {
  end = std::min(end, n_);
  std::unique_lock lock(mutex_);
  if (end > wanted_) {
    wanted_ = end;
    changed_.notify_all();
  }
  changed_.wait(lock, [&] { return checked_ >= end || failure_; });
  // A failure past `end` is the consumer's to meet when it gets there.
  if (checked_ < end) std::rethrow_exception(failure_);
}

}  // namespace dlfl::io
