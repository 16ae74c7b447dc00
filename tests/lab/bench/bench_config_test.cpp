// Benchmark files: subjects relative to the file, defaults, and errors.
#include "dlfl/lab/bench/bench_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/error.h"

namespace dlfl::bench {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kFile = "/b/benchmarks/bench.json";

std::string error_of(const std::string& text) {
  try {
    parse_bench_config(text, kFile);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(BenchConfig, SubjectsResolveAgainstTheFile) {
  const BenchConfig c = parse_bench_config(
      R"({"subjects": [{"subject": "../ex/a.json", "max": 5, "seed": 9}, {"subject": "b.json"}], "jobs": 3,
          "formulas": ["ochiai", "dstar:3"], "top_n": [1, 2]})",
      kFile);
  ASSERT_EQ(c.subjects.size(), 2u);
  EXPECT_EQ(c.subjects[0].subject_file, std::filesystem::path("/b/ex/a.json"));
  EXPECT_EQ(c.subjects[0].max, 5u);
  EXPECT_EQ(c.subjects[0].seed, 9u);
  EXPECT_EQ(c.subjects[1].subject_file, std::filesystem::path("/b/benchmarks/b.json"));
  EXPECT_EQ(c.subjects[1].max, 0u);
  EXPECT_EQ(c.subjects[1].seed, 1u);
  EXPECT_EQ(c.jobs, 3u);
  EXPECT_EQ(c.formulas, (std::vector<std::string>{"ochiai", "dstar:3"}));
  EXPECT_EQ(c.top_n, (std::vector<std::uint64_t>{1, 2}));
}

TEST(BenchConfig, Defaults) {
  const BenchConfig c = parse_bench_config(R"({"subjects": [{"subject": "a.json"}]})", kFile);
  EXPECT_EQ(c.formulas, (std::vector<std::string>{"ochiai", "dstar2", "tarantula", "barinel"}));
  EXPECT_EQ(c.top_n, (std::vector<std::uint64_t>{1, 3, 5, 10}));
  EXPECT_EQ(c.jobs, 1u);
}

TEST(BenchConfig, Errors) {
  EXPECT_THAT(error_of("nope"), HasSubstr(kFile.string() + ": not valid JSON"));
  EXPECT_THAT(error_of(R"({"subjects": []})"), HasSubstr("non-empty array"));
  EXPECT_THAT(error_of(R"({"subjects": [{"max": 3}]})"), HasSubstr("\"subject\" path"));
  EXPECT_THAT(error_of(R"({"subjects": [{"subject": "a", "mx": 3}]})"), HasSubstr("unknown field \"mx\""));
  EXPECT_THAT(error_of(R"({"subjects": [{"subject": "a", "max": -3}]})"), HasSubstr("\"max\" must be"));
  EXPECT_THAT(error_of(R"({"subjects": [{"subject": "a"}], "jobs": 0})"), HasSubstr("\"jobs\" must be a positive"));
  EXPECT_THAT(error_of(R"({"subjects": [{"subject": "a"}], "top_n": [0]})"), HasSubstr("top N"));
  EXPECT_THAT(error_of(R"({"subjects": [{"subject": "a"}], "formulas": []})"), HasSubstr("\"formulas\""));
  EXPECT_THAT(error_of(R"({"subjects": [{"subject": "a"}], "techniques": ["pagerank"]})"),
              HasSubstr("unknown technique \"pagerank\" (block, prfl, neighbors, flitsr, block-flitsr)"));
}

TEST(BenchConfig, TechniquesBesideTheFormulas) {
  const BenchConfig c = parse_bench_config(
      R"({"subjects": [{"subject": "a.json"}], "techniques": ["block", "prfl", "neighbors", "flitsr"]})", kFile);
  EXPECT_EQ(c.techniques, (std::vector<std::string>{"block", "prfl", "neighbors", "flitsr"}));
  EXPECT_TRUE(parse_bench_config(R"({"subjects": [{"subject": "a.json"}]})", kFile).techniques.empty());
}

TEST(BenchConfig, DefaultBenchmarkCoversBothBundledSubjects) {
  const auto c = read_bench_config(std::filesystem::path(DLFL_SOURCE_DIR) / "benchmarks/default-bench.json");
  ASSERT_EQ(c.subjects.size(), 2u);
  for (const auto& s : c.subjects) {
    EXPECT_TRUE(std::filesystem::exists(s.subject_file)) << s.subject_file;
    EXPECT_GT(s.max, 0u);
  }
  EXPECT_GE(c.subjects[0].max + c.subjects[1].max, 100u);  // the target is >= 100 kept faults
}

TEST(BenchConfig, MultiFaultMode) {
  const std::string subjects = R"("subjects": [{"subject": "a.json"}])";
  EXPECT_FALSE(parse_bench_config("{" + subjects + "}", kFile).multi_fault.enabled());
  const BenchConfig c =
      parse_bench_config("{" + subjects + R"(, "multi_fault": {"k": [2, 4], "combinations": 7}})", kFile);
  EXPECT_EQ(c.multi_fault.min_k, 2u);
  EXPECT_EQ(c.multi_fault.max_k, 4u);
  EXPECT_EQ(c.multi_fault.combinations, 7u);
  EXPECT_EQ(parse_bench_config("{" + subjects + R"(, "multi_fault": {"k": [3, 3]}})", kFile).multi_fault.combinations,
            20u);
  EXPECT_THAT(error_of("{" + subjects + R"(, "multi_fault": {"k": [1, 3]}})"),
              HasSubstr("multi-fault k is 1..3: it must be an ascending range within 2..8"));
  EXPECT_THAT(error_of("{" + subjects + R"(, "multi_fault": {"k": [4, 2]}})"), HasSubstr("ascending range"));
  EXPECT_THAT(error_of("{" + subjects + R"(, "multi_fault": {"k": [2, 9]}})"), HasSubstr("within 2..8"));
  EXPECT_THAT(error_of("{" + subjects + R"(, "multi_fault": {"k": 2}})"), HasSubstr("needs \"k\": [MIN, MAX]"));
  EXPECT_THAT(error_of("{" + subjects + R"(, "multi_fault": {"k": [2, 3], "n": 1}})"),
              HasSubstr("unknown field \"n\" in \"multi_fault\""));
  EXPECT_THAT(error_of("{" + subjects + R"(, "multi_fault": {"k": [2, 3], "combinations": 0}})"),
              HasSubstr("\"combinations\" must be a positive integer"));
}

}  // namespace
}  // namespace dlfl::bench
