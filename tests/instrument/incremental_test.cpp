// Instrumenting again after a one-line edit: only the edited file is rewritten (the others
// keep their bytes and modification times, so make rebuilds one object and links), and
// the spectrum of the rebuilt program still ranks the seeded fault first.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "dlfl/instrument/instrumenter.h"
#include "instrument_test_support.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;
using ::testing::HasSubstr;
using ::testing::Not;

const char* const kClamp =
    "#include \"util.h\"\n"
    "int clamp(int x, int lo, int hi) {\n"
    "  if (x < lo) return lo;\n"
    "  if (x > hi)\n"
    "    return lo;  // the seeded fault: hi\n"
    "  return twice(x) / 2;\n"
    "}\n";
const char* const kSum =
    "#include \"util.h\"\n"
    "int sum(const int* v, int n) {\n"
    "  int s = 0;\n"
    "  for (int i = 0; i < n; ++i) s += v[i];\n"
    "  return s;\n"
    "}\n";
const char* const kUtil = "#pragma once\ninline int twice(int x) {\n  return x + x;\n}\n";
// Six tests bracketed for the runtime; clamp above the range fails.
const char* const kMain =
    "#include <dlfl_rt/dlfl_rt.h>\n"
    "#include <stdio.h>\n"
    "int clamp(int, int, int);\n"
    "int sum(const int*, int);\n"
    "static int check(const char* name, int ok) {\n"
    "  dlfl_rt_end_test(ok ? DLFL_RT_PASSED : DLFL_RT_FAILED);\n"
    "  return ok;\n"
    "}\n"
    "int main() {\n"
    "  const int xs[] = {-2, 3, 4, 9, 12};\n"
    "  char name[32];\n"
    "  for (int i = 0; i < 5; ++i) {\n"
    "    snprintf(name, sizeof name, \"clamp_%d\", xs[i]);\n"
    "    dlfl_rt_begin_test(name);\n"
    "    const int want = xs[i] < 0 ? 0 : xs[i] > 5 ? 5 : xs[i];\n"
    "    check(name, clamp(xs[i], 0, 5) == want);\n"
    "  }\n"
    "  dlfl_rt_begin_test(\"sum\");\n"
    "  check(\"sum\", sum(xs, 5) == 26);\n"
    "  return 0;\n"
    "}\n";
// Objects rebuilt when their instrumented source or header changes (-MMD).
const char* const kMakefile =
    "CXXFLAGS = -O1 -I$(DLFL_INCLUDE) -MMD\n"
    "prog: src/clamp.o src/sum.o tests/main.o\n"
    "\t$(CXX) -o $@ $^ -L$(DLFL_LIB) -Wl,-rpath,$(DLFL_LIB) -ldlfl_rt\n"
    "%.o: %.cpp\n"
    "\t$(CXX) $(CXXFLAGS) -c $< -o $@\n"
    "-include src/clamp.d src/sum.d tests/main.d\n";

struct Stamp {
  std::string bytes;
  struct timespec mtime {};
};

Stamp stamp(const fs::path& p) {
  struct stat st {};
  ::stat(p.c_str(), &st);
  return {slurp(p), st.st_mtim};
}

bool same_time(const struct timespec& a, const struct timespec& b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

TEST(Incremental, AOneLineEditRewritesThatFileOnly) {
  if (!have_program("make")) GTEST_SKIP() << "no make";
  TempDir tmp;
  const fs::path src = tmp / "project", out = tmp / "instr";
  write_text(src / "src/clamp.cpp", kClamp);
  write_text(src / "src/sum.cpp", kSum);
  write_text(src / "src/util.h", kUtil);
  write_text(src / "tests/main.cpp", kMain);
  write_text(src / "Makefile", kMakefile);
  write_compile_commands(src, {"src/clamp.cpp", "src/sum.cpp", "tests/main.cpp"}, "g++",
                         "-std=c++17 -I" DLFL_INCLUDE_DIR);
  instrument::InstrumentOptions o;
  o.build_dir = src;
  o.root = src;
  o.out_dir = out;
  o.exclude = {"tests/"};
  const auto first = instrument::instrument(o);
  EXPECT_EQ(first.kept_files, 0u);
  const std::string make = "make -C " + out.string() + " DLFL_INCLUDE=" DLFL_INCLUDE_DIR " DLFL_LIB=" DLFL_RT_LIB_DIR;
  const Shell built = sh(make);
  ASSERT_EQ(built.exit_code, 0) << built.output;

  const Stamp clamp = stamp(out / "src/clamp.cpp"), util = stamp(out / "src/util.h"),
              makefile = stamp(out / "Makefile"), sum = stamp(out / "src/sum.cpp");
  // One line more in sum.cpp: a statement, so its probes change.
  write_text(src / "src/sum.cpp",
             "#include \"util.h\"\n"
             "int sum(const int* v, int n) {\n"
             "  int s = 0;\n"
             "  if (n < 0) return 0;\n"
             "  for (int i = 0; i < n; ++i) s += v[i];\n"
             "  return s;\n"
             "}\n");
  const auto second = instrument::instrument(o);
  EXPECT_EQ(second.kept_files, 2u);  // clamp.cpp and util.h
  EXPECT_GT(second.probes, first.probes);
  for (const auto& [name, before] : {std::pair{"src/clamp.cpp", clamp}, {"src/util.h", util}, {"Makefile", makefile}}) {
    const Stamp now = stamp(out / name);
    EXPECT_EQ(now.bytes, before.bytes) << name;
    EXPECT_TRUE(same_time(now.mtime, before.mtime)) << name << " was written again";
  }
  EXPECT_NE(stamp(out / "src/sum.cpp").bytes, sum.bytes);

  // The program built before the edit, run against the new map: the probes of its old
  // sum.cpp were retired, which the collector says.
  const fs::path old_snapshot = tmp / "old.map";
  ASSERT_EQ(sh("DLFL_RT_FILE=" + old_snapshot.string() + " " + (out / "prog").string()).exit_code, 0);
  const Shell stale = sh(std::string(DLFL_BINARY) + " collect --runtime --snapshot " + old_snapshot.string() +
                         " --probe-map " + second.probe_map.string() + " -o " + (tmp / "old.dlfl").string());
  EXPECT_THAT(stale.output, HasSubstr("probe(s) reached that no line of the probe map stands for")) << stale.output;

  // The rebuild compiles sum.cpp and links, nothing else.
  const Shell rebuilt = sh(make);
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.output;
  EXPECT_THAT(rebuilt.output, HasSubstr("src/sum.cpp"));
  EXPECT_THAT(rebuilt.output, Not(HasSubstr("clamp.cpp")));
  EXPECT_THAT(rebuilt.output, Not(HasSubstr("main.cpp")));

  // The rebuilt program against the new map: the faulty line ranks first.
  const fs::path snapshot = tmp / "run.map";
  const Shell ran = sh("DLFL_RT_FILE=" + snapshot.string() + " " + (out / "prog").string());
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const Shell collected = sh(std::string(DLFL_BINARY) + " collect --runtime --snapshot " + snapshot.string() +
                             " --probe-map " + second.probe_map.string() + " -o " + (tmp / "s.dlfl").string());
  ASSERT_EQ(collected.exit_code, 0) << collected.output;
  EXPECT_THAT(collected.output, Not(HasSubstr("warning"))) << collected.output;
  const Shell ranked = sh(std::string(DLFL_BINARY) + " rank " + (tmp / "s.dlfl").string() + " --format csv");
  ASSERT_EQ(ranked.exit_code, 0) << ranked.output;
  std::istringstream rows(ranked.output);
  std::string header, top;
  std::getline(rows, header);
  std::getline(rows, top);
  EXPECT_EQ(top.rfind("1,1,1,", 0), 0u) << ranked.output;  // first, alone
  EXPECT_THAT(top, HasSubstr("src/clamp.cpp")) << ranked.output;
  EXPECT_THAT(top, HasSubstr(",5,")) << ranked.output;  // line 5: `return lo;`
}

}  // namespace
