// find_probe_map(): the probe map of an instrumented binary, from where it was built.
#include "dlfl/collect/probe_map_lookup.h"

#include <gtest/gtest.h>

#include "../support/test_files.h"

namespace {

namespace fs = std::filesystem;
using dlfl::collect::find_probe_map;
using dlfl::collect::find_probe_map_of_run;
using dlfl::testing::TempDir;
using dlfl::testing::write_text;

TEST(ProbeMapLookup, FindsTheNearestMapAboveTheBinary) {
  TempDir dir("probe-map-lookup");
  write_text(dir / "instr/dlfl-probes.map", "outer");
  write_text(dir / "instr/build/tests/t", "binary");
  EXPECT_EQ(find_probe_map(dir / "instr/build/tests/t"), dir / "instr/dlfl-probes.map");
  // A nearer one wins (a nested instrumented tree).
  write_text(dir / "instr/build/dlfl-probes.map", "inner");
  EXPECT_EQ(find_probe_map(dir / "instr/build/tests/t"), dir / "instr/build/dlfl-probes.map");
}

TEST(ProbeMapLookup, FollowsACMakeBuildDirectoryToItsSourceTree) {
  TempDir dir("probe-map-lookup");
  write_text(dir / "instr/dlfl-probes.map", "map");
  write_text(dir / "build/CMakeCache.txt",
             "FOO:STRING=1\nCMAKE_HOME_DIRECTORY:INTERNAL=" + (dir / "instr").string() + "\n");
  write_text(dir / "build/bin/t", "binary");
  EXPECT_EQ(find_probe_map(dir / "build/bin/t"), dir / "instr/dlfl-probes.map");
}

TEST(ProbeMapLookup, ResolvesASymlinkedBinary) {
  TempDir dir("probe-map-lookup");
  write_text(dir / "instr/dlfl-probes.map", "map");
  write_text(dir / "instr/build/t", "binary");
  fs::create_directories(dir / "elsewhere");
  fs::create_symlink(dir / "instr/build/t", dir / "elsewhere/t");
  EXPECT_EQ(find_probe_map(dir / "elsewhere/t"), dir / "instr/dlfl-probes.map");
}

TEST(ProbeMapLookup, ReturnsEmptyWhenThereIsNone) {
  TempDir dir("probe-map-lookup");
  write_text(dir / "build/CMakeCache.txt", "CMAKE_HOME_DIRECTORY:INTERNAL=" + (dir / "src").string() + "\n");
  write_text(dir / "build/t", "binary");
  fs::create_directories(dir / "build/dlfl-probes.map");  // a directory is not a map
  EXPECT_EQ(find_probe_map(dir / "build/t"), fs::path());
}

// A pytest run: from the instrumented extension modules it loaded (built inside the
// instrumented tree by dlfl_pytest.build), else in the directories given, in order.
TEST(ProbeMapLookup, OfARunFromItsImagesThenItsDirectories) {
  TempDir dir("probe-map-lookup");
  write_text(dir / "work/tree/dlfl-probes.map", "map");
  write_text(dir / "work/tree/build/lib/pkg/_C.so", "module");
  write_text(dir / "run/dlfl-probes.map", "beside the run");
  write_text(dir / "project/dlfl-probes.map", "in-place build");
  write_text(dir / "plain/_C.so", "module");
  EXPECT_EQ(find_probe_map_of_run({dir / "plain/_C.so", dir / "work/tree/build/lib/pkg/_C.so"},
                                  {dir / "run", dir / "project"}),
            dir / "work/tree/dlfl-probes.map");
  EXPECT_EQ(find_probe_map_of_run({dir / "plain/_C.so"}, {dir / "run", dir / "project"}), dir / "run/dlfl-probes.map");
  EXPECT_EQ(find_probe_map_of_run({}, {dir / "nowhere", dir / "project"}), dir / "project/dlfl-probes.map");
  EXPECT_EQ(find_probe_map_of_run({}, {dir / "nowhere"}), fs::path());
}

}  // namespace
