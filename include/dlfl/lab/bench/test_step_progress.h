// Progress of a real bug's test runs as lines of its log: a project's suite under per-test
// gcov runs for half an hour, and a step that says nothing for that long looks hung.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "dlfl/collect/progress.h"

namespace dlfl::bench {

// `say` gets "LABEL: N tests..." at the start, "LABEL: K of N tests run, F failing,
// elapsed S s" when a test ends at least `interval` after the last such line, and
// "LABEL: K tests run in S s, F failing" at the end. Called from the collector's worker
// threads; serialized here, so `say` need not be thread-safe. A null `say` says nothing.
class TestStepProgress final : public collect::ProgressReporter {
 public:
  TestStepProgress(std::string label, std::function<void(const std::string&)> say,
                   std::chrono::seconds interval = std::chrono::seconds(30));
  void start(std::size_t total) override;
  void test_done(bool failed) override;
  void note(std::string_view) override {}
  void finish() override;

 private:
  std::string seconds() const;

  std::string label_;
  std::function<void(const std::string&)> say_;
  std::chrono::seconds interval_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point started_, last_;
  std::size_t total_ = 0, done_ = 0, failed_ = 0;
  bool finished_ = false;
};

}  // namespace dlfl::bench
