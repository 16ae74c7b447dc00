// Progress of a bench run: faults done, kept, discarded, ETA. A bar redrawn in place on a
// terminal, a plain line per finished fault otherwise (logs, CI).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string_view>

#include "dlfl/collect/progress.h"

namespace dlfl::bench {

// Thread-safe: workers report from their threads.
class BenchProgress {
 public:
  virtual ~BenchProgress() = default;
  virtual void start(std::size_t total) = 0;
  // One fault finished; `label` names it ("tensorlite#src_adam_cpp-L3-...: kept").
  virtual void fault_done(bool kept, std::string_view label) = 0;
  virtual void note(std::string_view line) = 0;  // shown above the bar
  virtual void finish() = 0;
};

// `style` as for the collector (collect::progress_style_for(fd) picks bar on a terminal).
// The ETA is elapsed / done × remaining: faults cost about the same (one incremental
// build and one test run). `clock` is for tests.
std::unique_ptr<BenchProgress> make_bench_progress(collect::ProgressStyle style, std::ostream& out,
                                                   std::chrono::steady_clock::time_point (*clock)() = nullptr);

}  // namespace dlfl::bench
