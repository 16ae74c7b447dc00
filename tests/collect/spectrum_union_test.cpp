// The union rule of spectra of the same code (dlfl/spectrum_union.h): repeated runs of one
// suite (k/N failure weights, coverage union, tests met in some runs only), how the runs
// of one test join, and how elements are matched and ordered.
#include "dlfl/spectrum_union.h"

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
  const SpectrumUnion m = unite_spectra(runs, RunTimeRule::mean);
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

TEST(RepeatedRuns, NoRunIsAnError) { EXPECT_THROW(unite_spectra({}, RunTimeRule::mean), Error); }

TestCase timed(TestCase test, std::uint64_t runtime_ns, std::string message = {}) {
  test.runtime_ns = runtime_ns;
  test.message = std::move(message);
  return test;
}

TEST(TestRuns, ASingleRunIsKeptAsItIs) {
  TestRuns runs;
  runs.add(timed(TestCase::flaky("t", 1, 3), 30, "why"));
  const TestCase t = runs.joined(RunTimeRule::mean);
  EXPECT_DOUBLE_EQ(t.failure_weight, 1.0 / 3);
  EXPECT_EQ(t.status, TestStatus::flaky);
  EXPECT_EQ(t.message, "why");
  EXPECT_EQ(t.runtime_ns, 30u);
  EXPECT_FALSE(runs.flaky());  // one run: nothing to disagree with
}

TEST(TestRuns, TheRuntimeIsTheSumForShardsAndTheMeanForRepeats) {
  TestRuns runs;
  runs.add(timed(TestCase::pass("t"), 10));
  runs.add(timed(TestCase::fail("t", TestStatus::timed_out), 30, "timed out"));
  runs.add(timed(TestCase::fail("t", TestStatus::crashed), 50, "crashed"));
  runs.add(timed(TestCase::pass("t"), 10));
  const TestCase total = runs.joined(RunTimeRule::total);
  const TestCase mean = runs.joined(RunTimeRule::mean);
  EXPECT_EQ(total.runtime_ns, 100u);
  EXPECT_EQ(mean.runtime_ns, 25u);
  // The rest is the same rule: mean weight, flaky, the first failing run's message.
  for (const TestCase& t : {total, mean}) {
    EXPECT_DOUBLE_EQ(t.failure_weight, 0.5);
    EXPECT_EQ(t.status, TestStatus::flaky);
    EXPECT_EQ(t.message, "timed out");
  }
  EXPECT_TRUE(runs.flaky());
  EXPECT_EQ(runs.flaky_label(), "t 2/4");
}

TEST(TestRuns, AllFailingKeepsTheFirstFailingStatusAllPassingDropsMessages) {
  TestRuns failing;
  failing.add(timed(TestCase::fail("t", TestStatus::crashed), 4, "segfault"));
  failing.add(timed(TestCase::fail("t"), 6, "assertion"));
  const TestCase f = failing.joined(RunTimeRule::mean);
  EXPECT_DOUBLE_EQ(f.failure_weight, 1.0);
  EXPECT_EQ(f.status, TestStatus::crashed);
  EXPECT_EQ(f.message, "segfault");
  EXPECT_EQ(f.runtime_ns, 5u);

  TestRuns passing;
  passing.add(timed(TestCase::pass("t"), 1, "a note"));
  passing.add(timed(TestCase::pass("t"), 1));
  const TestCase p = passing.joined(RunTimeRule::total);
  EXPECT_EQ(p.status, TestStatus::passed);
  EXPECT_TRUE(p.message.empty());
  EXPECT_FALSE(passing.flaky());
}

TEST(TestRuns, FractionalWeightsAverage) {
  // Spectra that are unions already (a merged shard) carry flaky weights themselves.
  TestRuns runs;
  runs.add(TestCase::flaky("t", 1, 2));
  runs.add(TestCase::fail("t"));
  EXPECT_DOUBLE_EQ(runs.joined(RunTimeRule::total).failure_weight, 0.75);
  EXPECT_EQ(runs.failed(), 2u);
}

TEST(SpectrumUnion, ElementsAreOneByLocationNotByFunctionName) {
  SpectrumBuilder a;
  const auto a1 = a.add_element("a.cpp", 1, 1, "f");
  const auto x = a.add_extrinsic("dtype=half");
  a.add_test(TestCase::fail("t1"), {a1, x});
  SpectrumBuilder b;
  const auto b1 = b.add_element("a.cpp", 1, 1, "renamed");  // the same line, however named
  const auto b2 = b.add_element("a.cpp", 2, 2, "f");
  const auto y = b.add_extrinsic("dtype=half");
  b.add_test(TestCase::pass("t2"), {b1, b2, y});
  std::vector<Spectrum> in;
  in.push_back(std::move(a).finish());
  in.push_back(std::move(b).finish());
  const Spectrum s = unite_spectra(in, RunTimeRule::total).spectrum;
  ASSERT_EQ(s.element_count(), 3u);
  EXPECT_EQ(s.element_name(0), in[0].element_name(0));  // the first met names it
  EXPECT_TRUE(s.coverage().covers(0, 0) && s.coverage().covers(1, 0));
  EXPECT_EQ(s.test_count(), 2u);
}

TEST(SpectrumUnion, ElementsSortedByLocationWhenEveryInputIsElseFirstMet) {
  auto one = [](std::vector<std::uint32_t> lines, const char* test) {
    SpectrumBuilder b;
    std::vector<std::uint32_t> ids;
    for (const auto line : lines) ids.push_back(b.add_element("a.cpp", line, line, "f"));
    b.add_test(TestCase::fail(test), ids);
    return std::move(b).finish();
  };
  std::vector<Spectrum> sorted;
  sorted.push_back(one({1, 5}, "t1"));
  sorted.push_back(one({3, 5}, "t2"));
  const Spectrum s = unite_spectra(sorted, RunTimeRule::total).spectrum;
  ASSERT_EQ(s.element_count(), 3u);
  EXPECT_EQ(s.element(1).first_line, 3u);  // between 1 and 5, not appended

  std::vector<Spectrum> unsorted;
  unsorted.push_back(one({5, 1}, "t1"));
  unsorted.push_back(one({3}, "t2"));
  const Spectrum u = unite_spectra(unsorted, RunTimeRule::total).spectrum;
  ASSERT_EQ(u.element_count(), 3u);
  EXPECT_EQ(u.element(0).first_line, 5u);
  EXPECT_EQ(u.element(2).first_line, 3u);  // first met order
}

}  // namespace
}  // namespace dlfl::collect
