// The instrumenter on the messy input of real projects, end to end (cases/real, C++, and
// cases/c, C): headers that start with a UTF-8 byte-order mark, CRLF line endings,
// `#pragma once` and include guards, headers planned from several units, macros that
// expand to statements, `if constexpr`, structured bindings, a template instantiated only
// by the (uninstrumented) driver, non-ASCII identifiers and string literals; in C, goto,
// labels, designated initialisers and compound literals. Each corpus is instrumented
// (two jobs), built with g++/gcc and clang++/clang at -Werror, run (each scenario in a test
// bracket of the runtime, linked into a plain program), and every probed line is checked
// against its `//@` markers.
#include <gtest/gtest.h>

#include "dlfl/instrument/instrumenter.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;

struct Corpus {
  const char* dir;                  // under tests/instrument/cases
  std::vector<std::string> units;   // instrumented translation units
  std::vector<std::string> headers; // rewritten headers
  const char* driver;               // the uninstrumented main
  const char* flags;
};

const Corpus kCxx{"real", {"unit_a.cpp", "unit_b.cpp"}, {"bom_header.h", "crlf_guarded.h"}, "driver.cpp",
                  "-std=c++20"};
const Corpus kC{"c", {"text.c", "words.c"}, {"text.h"}, "driver.c", "-std=c11"};

struct Case {
  const Corpus* corpus;
  instrument::ProbeGranularity granularity;
  const char* compiler;
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = std::string(info.param.corpus->dir) + "_" +
                     (info.param.granularity == instrument::ProbeGranularity::block ? "block_" : "statement_") +
                     info.param.compiler;
  for (char& c : name)
    if (c == '+') c = 'x';
  return name;
}

void PrintTo(const Case& c, std::ostream* os) { *os << case_name({c, 0}); }

class RealCode : public ::testing::TestWithParam<Case> {};

TEST_P(RealCode, InstrumentsBuildsAndCoversEveryMarkedLine) {
  const Case c = GetParam();
  const Corpus& corpus = *c.corpus;
  if (!have_program(c.compiler)) GTEST_SKIP() << c.compiler << " not found";
  TempDir tmp;
  const fs::path cases = fs::path(DLFL_SOURCE_DIR) / "tests/instrument/cases" / corpus.dir;
  const fs::path src = tmp / "src";
  fs::create_directories(src);
  std::vector<std::string> files = corpus.units;
  files.insert(files.end(), corpus.headers.begin(), corpus.headers.end());
  files.push_back(corpus.driver);
  for (const auto& f : files) fs::copy_file(cases / f, src / f);
  write_compile_commands(src, corpus.units, c.compiler, std::string(corpus.flags) + " -I" DLFL_INCLUDE_DIR);

  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.root = src;
  o.out_dir = tmp / "out";
  o.granularity = c.granularity;
  o.jobs = 2;
  const auto result = instrument::instrument(o);
  EXPECT_EQ(result.rewritten.size(), corpus.units.size() + corpus.headers.size());
  EXPECT_EQ(result.skipped_functions, 0u);
  // A byte-order mark stays first; the rest of the original text is all still there.
  for (const auto& f : files) {
    const std::string original = slurp(src / f), copy = slurp(tmp / "out" / f);
    EXPECT_EQ(original.starts_with("\xEF\xBB\xBF"), copy.starts_with("\xEF\xBB\xBF")) << f;
    EXPECT_GE(copy.size(), original.size()) << f;
  }

  const fs::path exe = tmp / "corpus";
  std::string sources;
  for (const auto& f : corpus.units) sources += " " + (tmp / "out" / f).string();
  const Shell build = sh(std::string(c.compiler) + " " + corpus.flags + " -O0 -Wall -Wextra -Wpedantic -Werror -I" +
                         DLFL_INCLUDE_DIR + " -I" + (tmp / "out").string() + sources + " " +
                         (tmp / "out" / corpus.driver).string() + " -o " + exe.string() + " -L" DLFL_RT_LIB_DIR
                         " -Wl,-rpath," DLFL_RT_LIB_DIR " -ldlfl_rt");
  ASSERT_EQ(build.exit_code, 0) << build.output;
  const fs::path snapshot = tmp / "run.map";
  const Shell run = sh("DLFL_RT_FILE=" + snapshot.string() + " " + exe.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;

  const auto map = instrument::read_probe_map(result.probe_map);
  std::vector<std::string> marked = corpus.units;
  marked.insert(marked.end(), corpus.headers.begin(), corpus.headers.end());
  expect_coverage_matches_markers(covered_lines(map, collect::read_runtime_snapshot(snapshot)),
                                  markers(src, marked, c.granularity == instrument::ProbeGranularity::block));
}

INSTANTIATE_TEST_SUITE_P(Instrument, RealCode,
                         ::testing::Values(Case{&kCxx, instrument::ProbeGranularity::statement, "g++"},
                                           Case{&kCxx, instrument::ProbeGranularity::statement, "clang++"},
                                           Case{&kCxx, instrument::ProbeGranularity::block, "g++"},
                                           Case{&kC, instrument::ProbeGranularity::statement, "gcc"},
                                           Case{&kC, instrument::ProbeGranularity::statement, "clang"},
                                           Case{&kC, instrument::ProbeGranularity::block, "gcc"}),
                         case_name);

}  // namespace
