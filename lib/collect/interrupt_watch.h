// Forwarding an asynchronous interrupt (SIGINT sets a flag) to a run's stop flag, which
// run_process polls, so running tests are killed within ~100 ms.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

namespace dlfl::collect::detail {

// A thread that sets `stop` once `*interrupt` is set; it ends when stopped (its
// destructor) or once `stop` is set. No thread when `interrupt` is null.
inline std::jthread watch_interrupt(const std::atomic<bool>* interrupt, std::atomic<bool>& stop) {
  if (!interrupt) return {};
  return std::jthread([interrupt, &stop](std::stop_token token) {
    while (!token.stop_requested() && !stop.load()) {
      if (interrupt->load()) stop = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
}

}  // namespace dlfl::collect::detail
