// A probe map that declares far more probes than it holds (`probes 4294967295` in a few
// bytes, a site of a huge probe id): reading it and building the spectrum from it
// allocate for the sites only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "../support/test_files.h"
#include "dlfl/probe_map/probe_map.h"
#include "runtime_spectrum.h"

namespace dlfl::collect {
namespace {

// Resident set size now (not the peak: earlier tests may have used more).
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

TEST(ProbeMapReader, DeclaredProbeCountAndIdsAllocateNothing) {
  // `probes 4294967295` in a few bytes threw std::bad_alloc (300000000: 7.1 GB RSS)
  // before the spectrum builder had seen a single test; so would one site of a huge
  // probe id. Memory follows the sites now.
  const dlfl::testing::TempDir dir("probe-map");
  dlfl::testing::write_text(dir / "m.map",
                            "dlfl-probe-map\t1\nroot\t/src\nprobes\t4294967295\nfile\t0\ta.cpp\nfunction\t0\tf\n"
                            "site\t7\t0\t10\t1\t0\th\nsite\t4000000000\t0\t11\t1\t0\th\n");
  const auto map = instrument::read_probe_map(dir / "m.map");
  EXPECT_EQ(map.probe_count, 4294967295u);
  const std::size_t before = resident_bytes();
  RuntimeSpectrumBuilder builder(map, false, std::nullopt);
  RuntimeTestRecord rec;
  rec.test = TestCase::fail("T");
  rec.probes = {4000000000u, 3, 4294967294u};  // probes without a site reach nothing
  builder.add(std::move(rec));
  CollectResult result;
  builder.finish(result);
  // A table per declared id would be 512 MiB a bit (and a walk of 2^32 ids in finish).
  EXPECT_LT(resident_bytes(), before + (64u << 20));
  ASSERT_FALSE(result.warnings.empty());
  EXPECT_EQ(result.warnings.front().rfind("2 probe(s) reached that no line of the probe map stands for", 0), 0u)
      << result.warnings.front();
  ASSERT_EQ(result.spectrum.element_count(), 2u);  // lines 10 and 11
  EXPECT_FALSE(result.spectrum.coverage().covers(0, 0));
  EXPECT_TRUE(result.spectrum.coverage().covers(0, 1));
}

}  // namespace
}  // namespace dlfl::collect
