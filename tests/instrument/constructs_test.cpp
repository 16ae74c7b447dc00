// The instrumenter on real C++ constructs, end to end: instrument cases/constructs.*,
// compile with g++ and clang++ (-Werror), run each scenario in a test bracket, and check
// every probed line against the `//@` markers in the sources: which scenarios reach it.
#include <gtest/gtest.h>

#include "dlfl/instrument/instrumenter.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;

struct Case {
  instrument::ProbeGranularity granularity;
  const char* compiler;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << (c.granularity == instrument::ProbeGranularity::block ? "block/" : "statement/") << c.compiler;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(info.param.granularity == instrument::ProbeGranularity::block ? "block" : "statement") + "_" +
         (std::string(info.param.compiler) == "g++" ? "gcc" : "clang");
}

class Constructs : public ::testing::TestWithParam<Case> {};

TEST_P(Constructs, EveryProbedLineIsReachedByExactlyItsScenarios) {
  const Case c = GetParam();
  if (!have_program(c.compiler)) GTEST_SKIP() << c.compiler << " not found";
  TempDir tmp;
  const fs::path src = tmp / "src";
  for (const char* name : {"constructs.h", "constructs.cpp", "driver.cpp"})
    write_text(src / name, slurp(fs::path(DLFL_SOURCE_DIR) / "tests/instrument/cases" / name));
  write_compile_commands(src, {"constructs.cpp", "driver.cpp"}, c.compiler, "-std=c++20 -I" DLFL_INCLUDE_DIR);

  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.root = src;
  o.out_dir = tmp / "out";
  o.sources = {"constructs.cpp"};
  o.granularity = c.granularity;
  const auto result = instrument::instrument(o);
  EXPECT_EQ(result.rewritten.size(), 2u);  // constructs.cpp and constructs.h
  EXPECT_EQ(result.skipped_functions, 1u);  // consteval cube
  // Originals untouched; driver.cpp (not selected) copied verbatim.
  EXPECT_EQ(slurp(src / "constructs.cpp"),
            slurp(fs::path(DLFL_SOURCE_DIR) / "tests/instrument/cases/constructs.cpp"));
  EXPECT_EQ(slurp(tmp / "out/driver.cpp"), slurp(src / "driver.cpp"));

  const fs::path exe = tmp / "constructs";
  const Shell build = sh(std::string(c.compiler) + " -std=c++20 -O0 -Wall -Wextra -Wpedantic -Werror -I" +
                         DLFL_INCLUDE_DIR + " -I" + (tmp / "out").string() + " " + (tmp / "out/constructs.cpp").string() +
                         " " + (tmp / "out/driver.cpp").string() + " -o " + exe.string() + " -L" DLFL_RT_LIB_DIR
                         " -Wl,-rpath," DLFL_RT_LIB_DIR " -ldlfl_rt");
  ASSERT_EQ(build.exit_code, 0) << build.output;
  const fs::path snapshot = tmp / "run.map";
  const Shell run = sh("DLFL_RT_FILE=" + snapshot.string() + " " + exe.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;

  const auto map = instrument::read_probe_map(result.probe_map);
  const auto actual = covered_lines(map, collect::read_runtime_snapshot(snapshot));
  const auto expected = markers(src, {"constructs.h", "constructs.cpp"}, c.granularity == instrument::ProbeGranularity::block);
  expect_coverage_matches_markers(actual, expected);
}

INSTANTIATE_TEST_SUITE_P(Instrument, Constructs,
                         ::testing::Values(Case{instrument::ProbeGranularity::statement, "g++"},
                                           Case{instrument::ProbeGranularity::block, "g++"},
                                           Case{instrument::ProbeGranularity::statement, "clang++"}),
                         case_name);

}  // namespace
