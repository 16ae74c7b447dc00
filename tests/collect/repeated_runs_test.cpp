// merge_repeated_runs(): k/N failure weights, coverage union, tests met in some runs only.
#include "dlfl/collect/repeated_runs.h"

#include <gtest/gtest.h>

#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

// One run: test "flaky" fails when `flaky_fails`; "steady" always fails; "ok" passes and
// covers line 2 only in runs where `ok_covers_2`.
Spectrum run(bool flaky_fails, bool ok_covers_2, bool with_late = false) {
  SpectrumBuilder b;
  const auto l1 = b.add_element("a.cpp", 1, 1, "f");
  const auto l2 = b.add_element("a.cpp", 2, 2, "f");
  b.add_test(flaky_fails ? TestCase::fail("flaky") : TestCase::pass("flaky"), {l1});
  b.add_test(TestCase::fail("steady", TestStatus::crashed), {l1, l2});
  if (ok_covers_2) b.add_test(TestCase::pass("ok"), {l2});
  else b.add_test(TestCase::pass("ok"), {l1});
  if (with_late) {
    const auto l3 = b.add_element("b.cpp", 7, 7, "g");
    b.add_test(TestCase::fail("late"), {l3});
  }
  return std::move(b).finish();
}

TEST(RepeatedRuns, FailingKOfNRunsWeighsKOverN) {
  std::vector<Spectrum> runs;
  runs.push_back(run(true, false));
  runs.push_back(run(false, true));
  runs.push_back(run(false, false));
  runs.push_back(run(true, false, /*with_late=*/true));
  const RepeatedRuns m = merge_repeated_runs(runs);
  const Spectrum& s = m.spectrum;
  ASSERT_EQ(s.test_count(), 4u);
  EXPECT_EQ(s.tests()[0].name, "flaky");
  EXPECT_DOUBLE_EQ(s.tests()[0].failure_weight, 0.5);
  EXPECT_EQ(s.tests()[0].status, TestStatus::flaky);
  EXPECT_DOUBLE_EQ(s.tests()[1].failure_weight, 1.0);
  EXPECT_EQ(s.tests()[1].status, TestStatus::crashed);
  EXPECT_DOUBLE_EQ(s.tests()[2].failure_weight, 0.0);
  EXPECT_EQ(s.tests()[3].name, "late");  // in one run only: 1 of 1
  EXPECT_DOUBLE_EQ(s.tests()[3].failure_weight, 1.0);
  EXPECT_EQ(m.flaky, (std::vector<std::string>{"flaky 2/4"}));
  ASSERT_EQ(s.element_count(), 3u);
  EXPECT_TRUE(s.coverage().covers(2, 0) && s.coverage().covers(2, 1));  // "ok": the union of its runs
  EXPECT_TRUE(s.coverage().covers(3, 2));
  EXPECT_DOUBLE_EQ(s.failed_weight(), 2.5);
}

TEST(RepeatedRuns, NoRunIsAnError) { EXPECT_THROW(merge_repeated_runs({}), Error); }

}  // namespace
}  // namespace dlfl::collect
