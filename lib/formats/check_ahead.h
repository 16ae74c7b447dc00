// CheckAhead: runs the checks of a stream of ranges on a second thread, a bounded number
// of ranges ahead of the thread that consumes them (dlfl merge: checking and hashing the
// inputs' next rows on one core while the other merges and writes the current ones).
// Internal to dlfl_formats.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace dlfl::io {

class CheckAhead {
 public:
  // Calls check(end) for end = step, 2 step, ..., n (the last one n) in that order on a
  // thread of its own, never more than `lead` steps past the end last waited for, and
  // stops at the first exception. `check` must not touch what the consumer does.
  CheckAhead(std::size_t n, std::size_t step, std::size_t lead, std::function<void(std::size_t)> check);
  // Stops the thread (after the check it is running) and joins it; never throws.
  ~CheckAhead();
  CheckAhead(const CheckAhead&) = delete;
  CheckAhead& operator=(const CheckAhead&) = delete;

  // Blocks until the checks through `end` (at most n) have run; rethrows the exception
  // of a check that failed at or before `end`.
  void wait_through(std::size_t end);

 private:
  void run();

  const std::size_t n_, step_, lead_;
  std::function<void(std::size_t)> check_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t checked_ = 0;  // checks through checked_ ran
  std::size_t wanted_ = 0;   // the end last waited for
  std::exception_ptr failure_;  // of the first check that threw (then no more run)
  bool stop_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace dlfl::io
