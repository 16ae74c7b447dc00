// The runtime's C API and snapshot file: slots, outcomes, growth, names, forks, SIGKILL.
// Each scenario runs in a forked child (the runtime is per-process state) and the parent
// reads the file the child left behind.
#define DLFL_RT_PROBE_COUNT 300
#define DLFL_RT_MAP_ID 0x1234
#include <dlfl_rt/probe.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include "dlfl/collect/runtime_collector.h"
#include "dlfl/error.h"
#include "dlfl_rt/dlfl_rt_file.h"

namespace {

namespace fs = std::filesystem;
using dlfl::collect::read_runtime_snapshot;
using dlfl::collect::RuntimeSnapshot;

class RuntimeApi : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("dlfl-rt-api-" + std::to_string(rd()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `body` in a child with DLFL_RT_FILE=<dir>/run.map (unless `file` is empty) and
  // returns its wait status. The body's return value is the child's exit code.
  int in_child(const std::function<int()>& body, bool file = true) {
    const pid_t pid = fork();
    if (pid == 0) {
      if (file) setenv("DLFL_RT_FILE", path().c_str(), 1);
      else unsetenv("DLFL_RT_FILE");
      _exit(body());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
  }
  fs::path path() const { return dir_ / "run.map"; }

  fs::path dir_;
};

TEST_F(RuntimeApi, SlotsHoldEachTestsProbesAndOutcome) {
  const int status = in_child([] {
    __dlfl_map[1].hit = 1;  // before any test: the outside slot
    if (dlfl_rt_begin_test("Suite.A") != 0) return 10;
    __dlfl_map[2].hit = 1;
    if (dlfl_rt_end_test(DLFL_RT_PASSED) != 0) return 11;
    __dlfl_map[3].hit = 1;  // between tests: outside again
    dlfl_rt_begin_test("Suite.B");
    __dlfl_map[4].hit = 1;
    __dlfl_map[299].hit = 1;
    dlfl_rt_end_test(DLFL_RT_FAILED);
    dlfl_rt_begin_test("Suite.C");
    dlfl_rt_end_test(DLFL_RT_SKIPPED);
    return dlfl_rt_end_test(DLFL_RT_PASSED) == -1 ? 0 : 12;  // no test running
  });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const RuntimeSnapshot s = read_runtime_snapshot(path());
  EXPECT_EQ(s.probe_count, 300u);
  EXPECT_EQ(s.map_id, 0x1234u);
  EXPECT_EQ(s.outside, (std::vector<std::uint32_t>{1, 3}));
  ASSERT_EQ(s.tests.size(), 3u);
  EXPECT_EQ(s.tests[0].name, "Suite.A");
  EXPECT_EQ(s.tests[0].probes, (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(s.tests[0].outcome, DLFL_RT_PASSED);
  EXPECT_EQ(s.tests[0].state, DLFL_RT_SLOT_ENDED);
  EXPECT_LE(s.tests[0].begin_ns, s.tests[0].end_ns);
  EXPECT_EQ(s.tests[1].probes, (std::vector<std::uint32_t>{4, 299}));
  EXPECT_EQ(s.tests[1].outcome, DLFL_RT_FAILED);
  EXPECT_TRUE(s.tests[2].probes.empty());
  EXPECT_EQ(s.tests[2].outcome, DLFL_RT_SKIPPED);
}

TEST_F(RuntimeApi, SigkillKeepsTheRunningTestsPartialCoverage) {
  const int status = in_child([] {
    dlfl_rt_begin_test("Suite.Done");
    __dlfl_map[5].hit = 1;
    dlfl_rt_end_test(DLFL_RT_PASSED);
    dlfl_rt_begin_test("Suite.Killed");
    __dlfl_map[6].hit = 1;
    kill(getpid(), SIGKILL);
    __dlfl_map[7].hit = 1;
    return 0;
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  const RuntimeSnapshot s = read_runtime_snapshot(path());
  ASSERT_EQ(s.tests.size(), 2u);
  EXPECT_EQ(s.tests[0].probes, (std::vector<std::uint32_t>{5}));
  EXPECT_EQ(s.tests[1].name, "Suite.Killed");
  EXPECT_EQ(s.tests[1].state, DLFL_RT_SLOT_RUNNING);
  EXPECT_EQ(s.tests[1].probes, (std::vector<std::uint32_t>{6}));
}

TEST_F(RuntimeApi, FileGrowsWithoutMovingTheMaps) {
  const int status = in_child([] {
    dlfl_rt_begin_test("first");
    unsigned char* first_map = dlfl_rt_current_map();
    for (int i = 0; i < 500; ++i) {
      dlfl_rt_begin_test(("t" + std::to_string(i)).c_str());
      __dlfl_map[i % 300].hit = 1;
    }
    // A thread still holding the first test's map pointer must not fault after growth.
    first_map[42] = 1;
    dlfl_rt_end_test(DLFL_RT_PASSED);
    return 0;
  });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const RuntimeSnapshot s = read_runtime_snapshot(path());
  ASSERT_EQ(s.tests.size(), 501u);
  EXPECT_EQ(s.tests[0].probes, (std::vector<std::uint32_t>{42}));
  EXPECT_EQ(s.tests[0].outcome, DLFL_RT_UNKNOWN);  // a new begin came before its end
  EXPECT_EQ(s.tests[500].name, "t499");
  EXPECT_EQ(s.tests[500].probes, (std::vector<std::uint32_t>{499 % 300}));
  EXPECT_EQ(s.tests[500].outcome, DLFL_RT_PASSED);
}

TEST_F(RuntimeApi, LongNamesAreTruncatedInTheFile) {
  const std::string name(3000, 'n');
  in_child([&] {
    dlfl_rt_begin_test(name.c_str());
    return dlfl_rt_end_test(DLFL_RT_PASSED);
  });
  const RuntimeSnapshot s = read_runtime_snapshot(path());
  ASSERT_EQ(s.tests.size(), 1u);
  EXPECT_EQ(s.tests[0].name, name.substr(0, DLFL_RT_NAME_CAPACITY - 1));
}

TEST_F(RuntimeApi, WithoutAFileEverythingStillWorks) {
  const int status = in_child(
      [] {
        __dlfl_map[3].hit = 1;
        if (dlfl_rt_begin_test("x") != 0) return 1;
        __dlfl_map[4].hit = 1;
        if (*dlfl_rt_file_path() != '\0') return 2;
        if (dlfl_rt_probe_count() != 300) return 3;
        return dlfl_rt_current_map()[4] == 1 ? 0 : 4;
      },
      false);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_FALSE(fs::exists(path()));
}

TEST_F(RuntimeApi, AForkedChildWritesItsOwnFile) {
  const int status = in_child([this] {
    dlfl_rt_begin_test("parent");
    __dlfl_map[1].hit = 1;
    const pid_t child = fork();
    if (child == 0) {
      __dlfl_map[2].hit = 1;  // inherited map: lands in the parent's running slot
      dlfl_rt_begin_test("child");
      __dlfl_map[3].hit = 1;
      dlfl_rt_end_test(DLFL_RT_PASSED);
      _exit(std::string(dlfl_rt_file_path()) == path().string() + "." + std::to_string(getpid()) ? 0 : 1);
    }
    int child_status = 0;
    waitpid(child, &child_status, 0);
    dlfl_rt_end_test(DLFL_RT_PASSED);
    return WIFEXITED(child_status) ? WEXITSTATUS(child_status) : 2;
  });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const RuntimeSnapshot parent = read_runtime_snapshot(path());
  ASSERT_EQ(parent.tests.size(), 1u);
  EXPECT_EQ(parent.tests[0].probes, (std::vector<std::uint32_t>{1, 2}));
  int children = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (entry.path() == path()) continue;
    const RuntimeSnapshot child = read_runtime_snapshot(entry.path());
    ASSERT_EQ(child.tests.size(), 1u);
    EXPECT_EQ(child.tests[0].name, "child");
    EXPECT_EQ(child.tests[0].probes, (std::vector<std::uint32_t>{3}));
    ++children;
  }
  EXPECT_EQ(children, 1);
}

TEST_F(RuntimeApi, ReaderRejectsFilesThatAreNotSnapshots) {
  std::ofstream(dir_ / "junk") << std::string(5000, 'x');
  EXPECT_THROW(read_runtime_snapshot(dir_ / "junk"), dlfl::Error);
  std::ofstream(dir_ / "short") << "DLFLRT01";
  EXPECT_THROW(read_runtime_snapshot(dir_ / "short"), dlfl::Error);
  EXPECT_THROW(read_runtime_snapshot(dir_ / "missing"), dlfl::Error);
  // A header that promises more slots than the file holds.
  in_child([] {
    dlfl_rt_begin_test("a");
    return dlfl_rt_end_test(DLFL_RT_PASSED);
  });
  fs::resize_file(path(), DLFL_RT_HEADER_SIZE + 10);
  EXPECT_THROW(read_runtime_snapshot(path()), dlfl::Error);
}

// Sizes picked so that the sums and products of a naive check wrap around 2^64 and pass:
// the reader must refuse the file, not read past its mapping.
TEST_F(RuntimeApi, ReaderRejectsHeadersWhoseSizesOverflow) {
  in_child([] {
    dlfl_rt_begin_test("a");
    return dlfl_rt_end_test(DLFL_RT_PASSED);
  });
  const std::string good = [&] {
    std::ifstream in(path(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_NO_THROW(read_runtime_snapshot(path()));
  const auto corrupt = [&](const std::function<void(dlfl_rt_file_header&)>& edit) {
    std::string bytes = good;
    dlfl_rt_file_header h;
    std::memcpy(&h, bytes.data(), sizeof h);
    edit(h);
    std::memcpy(bytes.data(), &h, sizeof h);
    std::ofstream(dir_ / "corrupt", std::ios::binary) << bytes;
    return dir_ / "corrupt";
  };
  // probe_count so large that slot header + name + probes wraps to a small number.
  EXPECT_THROW(read_runtime_snapshot(corrupt([](dlfl_rt_file_header& h) {
                 h.probe_count = ~std::uint64_t{0} - DLFL_RT_SLOT_HEADER_SIZE - h.name_capacity + 1;
               })),
               dlfl::Error);
  // slot_count * slot_stride wraps around to 0.
  EXPECT_THROW(read_runtime_snapshot(corrupt([](dlfl_rt_file_header& h) {
                 h.slot_stride = std::uint64_t{1} << 63;
                 h.slot_count = 2;
               })),
               dlfl::Error);
}

}  // namespace
