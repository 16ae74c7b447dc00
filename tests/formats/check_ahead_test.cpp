// Tests for CheckAhead: checks in order, bounded lead, failures met where they belong.
#include "../../lib/formats/check_ahead.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace dlfl::io {
namespace {

// The ends checked so far, and how far past the consumer each check ran.
struct Log {
  std::mutex mutex;
  std::vector<std::size_t> ends;
  void add(std::size_t end) {
    const std::lock_guard lock(mutex);
    ends.push_back(end);
  }
  std::vector<std::size_t> snapshot() {
    const std::lock_guard lock(mutex);
    return ends;
  }
};

TEST(CheckAhead, ChecksEveryStepInOrderThroughTheLastPartialOne) {
  Log log;
  {
    CheckAhead ahead(10, 4, 1, [&](std::size_t end) { log.add(end); });
    ahead.wait_through(3);
    EXPECT_GE(log.snapshot().size(), 1u);  // the check through 4 covers 3
    ahead.wait_through(10);
    EXPECT_EQ(log.snapshot(), (std::vector<std::size_t>{4, 8, 10}));
    ahead.wait_through(99);  // past n: through n
  }
  EXPECT_EQ(log.snapshot(), (std::vector<std::size_t>{4, 8, 10}));
}

TEST(CheckAhead, RunsAtMostLeadStepsPastWhatWasWaitedFor) {
  Log log;
  CheckAhead ahead(1000, 10, 3, [&](std::size_t end) { log.add(end); });
  ahead.wait_through(20);
  // However long the consumer takes, the checker stops at 20 + 3 steps.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto ends = log.snapshot();
  ASSERT_FALSE(ends.empty());
  EXPECT_LE(ends.back(), 50u);
  EXPECT_GE(ends.back(), 20u);
}

TEST(CheckAhead, AFailureIsMetByTheWaitThatNeedsItsRange) {
  Log log;
  CheckAhead ahead(100, 10, 5, [&](std::size_t end) {
    if (end == 40) throw std::runtime_error("rows 30-40 broken");
    log.add(end);
  });
  EXPECT_NO_THROW(ahead.wait_through(30));  // ranges before the broken one are fine
  try {
    ahead.wait_through(35);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "rows 30-40 broken");
  }
  EXPECT_THROW(ahead.wait_through(100), std::runtime_error);
  EXPECT_EQ(log.snapshot(), (std::vector<std::size_t>{10, 20, 30}));  // none after the failure
}

TEST(CheckAhead, StopsWhenTheConsumerGivesUp) {
  Log log;
  {
    // The consumer fails before waiting for anything: the destructor stops the checker
    // at its lead and returns.
    CheckAhead ahead(1u << 30, 1, 2, [&](std::size_t end) { log.add(end); });
  }
  EXPECT_LE(log.snapshot().size(), 2u);
  CheckAhead none(0, 10, 1, [&](std::size_t) { FAIL() << "nothing to check"; });
  none.wait_through(5);
}

}  // namespace
}  // namespace dlfl::io
