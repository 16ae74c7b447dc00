// collect() of runtime snapshots, on snapshot files the fixture wrote when run directly (as a
// harness dlfl did not start runs it): outcomes from the slots, a dead process's running
// test kept as crashed, outside coverage per process, and the errors it owes its callers.
#include "dlfl/collect/collector.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "dlfl/error.h"
#include "dlfl/probe_map/probe_map.h"
#include "../support/spectrum_lines.h"

namespace {

using dlfl::testing::lines_by_test;

namespace fs = std::filesystem;
using namespace dlfl;

class SnapshotCollector : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("dlfl-snapshot-collect-" + std::to_string(rd()));
    fs::create_directories(dir_);
    map_.root = "/src";
    map_.probe_count = 16;
    map_.files = {"fixture.cpp"};
    map_.functions = {"f"};
    for (std::uint32_t i = 0; i < 16; ++i) map_.sites.push_back({i, 0, 100 + i, 1, 0, instrument::ProbeSpace::host});
    map_.id = 0;  // as the fixture registers
    instrument::write_probe_map(map_, dir_ / "probes.map");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The fixture on `filter`, writing `name` in the test directory.
  fs::path run_fixture(const std::string& name, const std::string& filter) const {
    const fs::path snapshot = dir_ / name;
    const std::string cmd = "DLFL_RT_FILE='" + snapshot.string() + "' '" DLFL_RT_FIXTURE "' --gtest_filter='" +
                            filter + "' >/dev/null 2>&1";
    (void)std::system(cmd.c_str());  // fails and crashes on purpose
    return snapshot;
  }

  collect::CollectRequest options(std::vector<fs::path> snapshots) const {
    collect::CollectRequest o;
    o.source = collect::RuntimeSnapshots{std::move(snapshots)};
    o.probe_map = dir_ / "probes.map";
    return o;
  }

  fs::path dir_;
  instrument::ProbeMap map_;
};

TEST_F(SnapshotCollector, OutcomesFromTheSlotsAndTheCrashedTestKept) {
  const fs::path a = run_fixture("a.map", "Fixture.Pass1:Fixture.Abort:Fixture.Pass3");  // dies in Abort
  const fs::path b = run_fixture("b.map", "Fixture.Fail:Fixture.Skip");
  auto o = options({a, b});
  o.include_outside_tests = false;
  const auto result = collect::collect(o);
  EXPECT_EQ(result.stats.listed, 4u);  // Pass1, Abort, Fail, Skip: Pass3 never began
  EXPECT_EQ(result.stats.processes, 2u);
  EXPECT_EQ(result.stats.tests, 3u);
  EXPECT_EQ(result.stats.failing, 2u);
  EXPECT_EQ(result.stats.crashed, 1u);
  EXPECT_EQ(result.stats.skipped, 1u);
  const Spectrum& s = result.spectrum;
  ASSERT_EQ(s.test_count(), 3u);
  EXPECT_EQ(s.tests()[0].name, "Fixture.Pass1");
  EXPECT_EQ(s.tests()[0].status, TestStatus::passed);
  EXPECT_EQ(s.tests()[1].name, "Fixture.Abort");
  EXPECT_EQ(s.tests()[1].status, TestStatus::crashed);
  EXPECT_NE(s.tests()[1].message.find("ended during this test"), std::string::npos);
  EXPECT_EQ(s.tests()[2].name, "Fixture.Fail");
  EXPECT_EQ(s.tests()[2].status, TestStatus::failed);
  // Without the outside coverage, exactly each body's probe.
  const auto lines = lines_by_test(s);
  EXPECT_EQ(lines.at("Fixture.Pass1"), (std::set<std::uint32_t>{101}));
  EXPECT_EQ(lines.at("Fixture.Abort"), (std::set<std::uint32_t>{104}));
  EXPECT_EQ(lines.at("Fixture.Fail"), (std::set<std::uint32_t>{106}));
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings[0].rfind("Fixture.Abort: the process (pid ", 0), 0u) << result.warnings[0];
}

TEST_F(SnapshotCollector, RefusesASnapshotOfAnotherProbeMapAndSnapshotsWithoutTests) {
  const fs::path a = run_fixture("a.map", "Fixture.Pass1:Fixture.Fail");
  map_.id = 0x42;  // the fixture wrote id 0: unknown, accepted
  instrument::write_probe_map(map_, dir_ / "probes.map");
  EXPECT_EQ(collect::collect(options({a})).stats.tests, 2u);

  map_.probe_count = 8;  // fewer probes than the snapshot: another map
  map_.sites.resize(8);
  instrument::write_probe_map(map_, dir_ / "probes.map");
  try {
    collect::collect(options({a}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), a.string());
    EXPECT_NE(std::string(e.what()).find((dir_ / "probes.map").string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(collect::collect(options({})), Error);
  EXPECT_THROW(collect::collect(options({dir_ / "missing.map"})), Error);
}

}  // namespace
