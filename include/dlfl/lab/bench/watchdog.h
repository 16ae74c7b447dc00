// Watchdog: one cancel flag raised when a deadline passes or an outer interrupt is raised,
// so a collection stops for either reason (and the caller can tell which).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace dlfl::bench {

// Sets its flag when the deadline passes or the outer interrupt is raised, so one flag
// stops a collection for either reason.
class Watchdog {
 public:
  Watchdog(std::chrono::steady_clock::duration limit, const std::atomic<bool>* outer)
      : deadline_(std::chrono::steady_clock::now() + limit), outer_(outer), thread_([this] { watch(); }) {}
  ~Watchdog() {
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  const std::atomic<bool>* flag() const { return &fired_; }
  bool expired() const { return expired_.load(); }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    while (!done_) {
      if (outer_ && outer_->load()) {
        fired_ = true;
        return;
      }
      if (std::chrono::steady_clock::now() >= deadline_) {
        expired_ = true;
        fired_ = true;
        return;
      }
      wake_.wait_for(lock, std::chrono::milliseconds(100));
    }
  }
  std::chrono::steady_clock::time_point deadline_;
  const std::atomic<bool>* outer_;
  std::atomic<bool> fired_{false}, expired_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace dlfl::bench
