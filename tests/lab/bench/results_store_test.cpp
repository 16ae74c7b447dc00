// The resumable store: records survive reopening, a torn last line is dropped, a fault
// is never stored twice.
#include "dlfl/lab/bench/results_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "../../support/test_files.h"
#include "bench_test_support.h"
#include "dlfl/error.h"

namespace dlfl::bench {
namespace {

using dlfl::testing::slurp;
using dlfl::testing::TempDir;
using dlfl::testing::write_text;
using testing::discarded_fault;
using testing::kept_fault;

TEST(ResultsStore, RecordRoundTripsThroughJson) {
  const FaultRecord r = kept_fault("tensorlite", "src_a_cpp-L12-swap_dims-0", "tensor", 3);
  const FaultRecord back = parse_record(record_to_json(r), "x", 1);
  EXPECT_EQ(back.key(), r.key());
  EXPECT_EQ(back.file, r.file);
  EXPECT_EQ(back.faulty_lines, r.faulty_lines);
  ASSERT_EQ(back.results.size(), 2u);
  EXPECT_EQ(back.results[1].formula, "dstar2");
  EXPECT_DOUBLE_EQ(back.results[1].first_rank, 4.0);
  EXPECT_EQ(back.results[0].top, r.results[0].top);
  EXPECT_EQ(record_to_json(back), record_to_json(r));
  EXPECT_THROW(parse_record(R"({"subject": "a"})", "store.jsonl", 7), Error);
  // A seeded fault's record names no machine; a real bug's names the CPU it ran on.
  EXPECT_EQ(record_to_json(r).find("\"host\""), std::string::npos);
  FaultRecord real = r;
  real.host = "AMD EPYC (family 23, model 1; x86_64: sse4_2 avx avx2 fma)";
  EXPECT_EQ(parse_record(record_to_json(real), "x", 1).host, real.host);
  // Mutation analysis: written only when asked for, its cost read back whole.
  EXPECT_EQ(record_to_json(r).find("\"mbfl\""), std::string::npos);
  real.mbfl = MutationCost{.failure = "", .generated = 9, .compiled = 8, .killed = 5, .runs = 70, .build_seconds = 12.5,
                           .run_seconds = 30.25, .seconds = 45.0, .plain_build_seconds = 10.0,
                           .plain_build_uncached = true, .on_faulty_lines = 0,
                           .faulty_lines_examined = 1,
                           .budget = 100,
                           .per_line = 5,
                           .operators = {"negate_condition", "unary_delete"}};
  const FaultRecord measured = parse_record(record_to_json(real), "x", 1);
  ASSERT_TRUE(measured.mbfl.has_value());
  EXPECT_EQ(measured.mbfl->compiled, 8u);
  EXPECT_EQ(measured.mbfl->runs, 70u);
  EXPECT_DOUBLE_EQ(measured.mbfl->run_seconds, 30.25);
  EXPECT_DOUBLE_EQ(measured.mbfl->plain_build_seconds, 10.0);
  EXPECT_TRUE(measured.mbfl->plain_build_uncached);
  EXPECT_EQ(measured.mbfl->faulty_lines_examined, std::optional<std::size_t>(1));
  EXPECT_EQ(measured.mbfl->budget, 100u);
  EXPECT_EQ(measured.mbfl->per_line, 5u);
  EXPECT_EQ(measured.mbfl->operators, real.mbfl->operators);
  EXPECT_EQ(record_to_json(measured), record_to_json(real));
  // Records of versions that did not count the examined faulty lines, or write the
  // settings, or built no plain copy, say nothing of them.
  real.mbfl->faulty_lines_examined.reset();
  real.mbfl->budget = real.mbfl->per_line = 0;
  real.mbfl->operators.clear();
  real.mbfl->plain_build_uncached = false;
  for (const char* field : {"\"budget\"", "\"per_line\"", "\"operators\"", "\"plain_build_uncached\""})
    EXPECT_EQ(record_to_json(real).find(field), std::string::npos) << field;
  EXPECT_EQ(record_to_json(real).find("faulty_lines_examined"), std::string::npos);
  EXPECT_FALSE(parse_record(record_to_json(real), "x", 1).mbfl->faulty_lines_examined.has_value());
  real.mbfl = MutationCost{};
  real.mbfl->failure = "no compilation database in build";
  EXPECT_EQ(parse_record(record_to_json(real), "x", 1).mbfl->failure, real.mbfl->failure);
}

TEST(ResultsStore, ReopenedStoreHoldsEveryAppendedFault) {
  TempDir dir("bench-store");
  const auto path = dir / "results.jsonl";
  {
    ResultsStore store(path);
    EXPECT_TRUE(store.records().empty());
    store.append(kept_fault("tensorlite", "a", "tensor", 1));
    store.append(discarded_fault("tensorlite", "b", "build fails"));
    store.append(kept_fault("tensorlite", "a", "tensor", 9));  // same fault again: ignored
    EXPECT_EQ(store.records().size(), 2u);
  }
  ResultsStore again(path);
  ASSERT_EQ(again.records().size(), 2u);
  EXPECT_TRUE(again.contains("tensorlite#a"));
  EXPECT_TRUE(again.contains("tensorlite#b"));
  EXPECT_FALSE(again.contains("tensorlite#c"));
  EXPECT_EQ(again.records()[1].reason, "build fails");
  EXPECT_DOUBLE_EQ(again.records()[0].results[0].first_rank, 1.0);
}

// A retried discard (`bugset reproduce --retry-discarded`): the later attempt's line
// supersedes the earlier one in place, when the store is open and when it is read again;
// an attempt that is not later is ignored like any repeated key.
TEST(ResultsStore, ALaterAttemptSupersedesTheEarlierRecord) {
  TempDir dir("bench-store-attempts");
  const auto path = dir / "results.jsonl";
  {
    ResultsStore store(path);
    store.append(discarded_fault("p", "a", "configure-time download"));
    store.append(kept_fault("p", "b", "tensor", 2));
    FaultRecord retried = kept_fault("p", "a", "tensor", 1);
    retried.attempt = 2;
    retried.clone = "/clones/p";
    retried.recipe = "0123456789abcdef";
    retried.tail = "a\\nb";
    store.append(retried);
    FaultRecord stale = discarded_fault("p", "a", "build failed");
    stale.attempt = 2;
    store.append(stale);  // not later than what is stored: ignored
    ASSERT_EQ(store.records().size(), 2u);
    EXPECT_TRUE(store.find("p#a")->kept);
    EXPECT_EQ(store.records()[0].key(), "p#a");  // in the place of the first attempt
  }
  for (const auto& records : {ResultsStore(path).records(), read_records(path)}) {
    ASSERT_EQ(records.size(), 2u);
    EXPECT_TRUE(records[0].kept);
    EXPECT_EQ(records[0].attempt, 2u);
    EXPECT_EQ(records[0].clone, "/clones/p");
    EXPECT_EQ(records[0].recipe, "0123456789abcdef");
    EXPECT_EQ(records[0].tail, "a\\nb");
  }
  EXPECT_EQ(dlfl::testing::slurp(path).find("build failed"), std::string::npos);
  EXPECT_THROW(parse_record(R"({"subject": "a", "fault": "b", "attempt": 0})", "store.jsonl", 3), Error);
}

// A run killed in the middle of a write leaves a line without its newline: that fault
// runs again, and the next append starts on a clean line.
TEST(ResultsStore, TornLastLineIsCutOff) {
  TempDir dir("bench-store");
  const auto path = dir / "results.jsonl";
  const std::string complete = record_to_json(kept_fault("confeval", "a", "traditional", 2)) + "\n";
  const std::string torn = record_to_json(kept_fault("confeval", "b", "traditional", 5)).substr(0, 40);
  write_text(path, complete + torn);
  {
    ResultsStore store(path);
    ASSERT_EQ(store.records().size(), 1u);
    EXPECT_FALSE(store.contains("confeval#b"));
    EXPECT_EQ(slurp(path), complete);
    store.append(kept_fault("confeval", "b", "traditional", 5));
  }
  ResultsStore again(path);
  EXPECT_EQ(again.records().size(), 2u);
}

// Two benches on one output directory would interleave records and share work trees.
TEST(ResultsStore, SecondOpenWhileTheFirstHoldsItIsAnError) {
  TempDir dir("bench-store");
  const auto path = dir / "results.jsonl";
  {
    ResultsStore first(path);
    try {
      ResultsStore second(path);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("another dlfl bench is using this output directory"));
    }
    first.append(kept_fault("tensorlite", "a", "tensor", 1));
  }
  ResultsStore after(path);  // released with the first store
  EXPECT_EQ(after.records().size(), 1u);
}

TEST(ResultsStore, MalformedCompleteLineIsAnError) {
  TempDir dir("bench-store");
  const auto path = dir / "results.jsonl";
  write_text(path, "{not json}\n");
  try {
    ResultsStore store(path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(path.string() + ":1: malformed result record"));
  }
}

// A store received with an output directory is data: one too large, a line too long or a
// record nested too deep is refused before it is loaded or parsed, the file left as it was.
TEST(ResultsStore, OversizedStoresLinesAndNestingAreRefusedBeforeLoading) {
  TempDir dir("bench-store");
  const auto path = dir / "results.jsonl";
  auto error_of = [&] {
    try {
      ResultsStore store(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string complete = record_to_json(kept_fault("confeval", "a", "traditional", 2)) + "\n";
  write_text(path, complete);
  ASSERT_EQ(::truncate(path.c_str(), off_t{2} << 30), 0);  // sparse: free on disk
  EXPECT_EQ(error_of(), path.string() + ": results store of 2147483648 bytes is larger than the 1 GiB limit");
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(complete.size() + kMaxResultRecordBytes + 1)), 0);
  EXPECT_EQ(error_of(), path.string() + ":2: line longer than the 16 MiB limit");
  EXPECT_THROW(read_records(path), Error);
  write_text(path, complete + std::string(1000, '[') + "\n");
  EXPECT_EQ(error_of(), path.string() + ":2: JSON nested deeper than 64 levels");
  EXPECT_EQ(slurp(path), complete + std::string(1000, '[') + "\n");
}

}  // namespace
}  // namespace dlfl::bench
