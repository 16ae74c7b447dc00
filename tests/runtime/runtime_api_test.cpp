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
#include <set>
#include <string>
#include <vector>

#include "dlfl/collect/runtime_snapshot.h"
#include "dlfl/collect/runtime_snapshot.h"
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

// Reading while the writer runs: each poll hands the tests ended since the last one, a file
// not there yet gives nothing, and finish() hands the rest and the running test, with the
// outside coverage the whole file has.
TEST_F(RuntimeApi, TailReadsTestsAsTheyEnd) {
  dlfl::collect::RuntimeSnapshotTail tail(path());
  std::vector<std::string> names;
  const auto on_test = [&](const RuntimeSnapshot& s, dlfl::collect::RuntimeSlot&& t) {
    EXPECT_EQ(s.probe_count, 300u);
    names.push_back(t.name + (t.state == DLFL_RT_SLOT_RUNNING ? " running" : ""));
  };
  EXPECT_EQ(tail.poll(on_test), 0u);  // no file yet

  int to_child[2], to_parent[2];
  ASSERT_EQ(pipe(to_child), 0);
  ASSERT_EQ(pipe(to_parent), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("DLFL_RT_FILE", path().c_str(), 1);
    char c = 0;
    const auto step = [&] { return write(to_parent[1], "x", 1) == 1 && read(to_child[0], &c, 1) == 1; };
    __dlfl_map[1].hit = 1;
    dlfl_rt_begin_test("Suite.A");
    __dlfl_map[2].hit = 1;
    dlfl_rt_end_test(DLFL_RT_PASSED);
    dlfl_rt_begin_test("Suite.B");
    __dlfl_map[3].hit = 1;
    if (!step()) _exit(3);  // A ended, B running
    dlfl_rt_end_test(DLFL_RT_FAILED);
    __dlfl_map[4].hit = 1;  // outside, after the polls
    dlfl_rt_begin_test("Suite.C");
    __dlfl_map[5].hit = 1;
    kill(getpid(), SIGKILL);
    _exit(4);
  }
  char c = 0;
  ASSERT_EQ(read(to_parent[0], &c, 1), 1);
  EXPECT_EQ(tail.poll(on_test), 1u);
  EXPECT_EQ(names, (std::vector<std::string>{"Suite.A"}));
  EXPECT_EQ(tail.poll(on_test), 0u);  // B still runs
  bool asked = false;
  EXPECT_EQ(tail.poll(on_test, [&] { return asked = true; }), 0u);
  EXPECT_FALSE(asked);  // nothing new: not asked
  ASSERT_EQ(write(to_child[1], "x", 1), 1);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  for (const int fd : {to_child[0], to_child[1], to_parent[0], to_parent[1]}) close(fd);

  EXPECT_EQ(tail.poll(on_test, [] { return false; }), 0u);  // refused: B stays for later
  const RuntimeSnapshot s = tail.finish(on_test);
  EXPECT_EQ(names, (std::vector<std::string>{"Suite.A", "Suite.B", "Suite.C running"}));
  EXPECT_EQ(s.outside, (std::vector<std::uint32_t>{1, 4}));
  EXPECT_TRUE(s.tests.empty());
}

TEST_F(RuntimeApi, ManyTestsAndAStaleMapPointer) {
  const int status = in_child([] {
    dlfl_rt_begin_test("first");
    unsigned char* first_map = dlfl_rt_current_map();
    for (int i = 0; i < 500; ++i) {
      dlfl_rt_begin_test(("t" + std::to_string(i)).c_str());
      __dlfl_map[i % 300].hit = 1;
    }
    // A thread still holding the first test's map pointer writes into the running test's
    // map: never out of bounds.
    first_map[42] = 1;
    dlfl_rt_end_test(DLFL_RT_PASSED);
    return 0;
  });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const RuntimeSnapshot s = read_runtime_snapshot(path());
  ASSERT_EQ(s.tests.size(), 501u);
  EXPECT_TRUE(s.tests[0].probes.empty());
  EXPECT_EQ(s.tests[0].outcome, DLFL_RT_UNKNOWN);  // a new begin came before its end
  EXPECT_EQ(s.tests[1].probes, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(s.tests[1].outcome, DLFL_RT_UNKNOWN);
  EXPECT_EQ(s.tests[500].name, "t499");
  EXPECT_EQ(s.tests[500].probes, (std::vector<std::uint32_t>{42, 499 % 300}));
  EXPECT_EQ(s.tests[500].outcome, DLFL_RT_PASSED);
}

// A finished test costs a record header, its name and 4 bytes per hit (or a bitset when
// that is smaller), not a byte per probe.
TEST_F(RuntimeApi, FinishedTestsAreStoredCompactly) {
  const int status = in_child([] {
    for (int t = 0; t < 1000; ++t) {
      dlfl_rt_begin_test("Suite.T");  // 7 bytes: the name takes 8 with padding
      __dlfl_map[t % 300].hit = 1;
      __dlfl_map[(t + 1) % 300].hit = 1;
      dlfl_rt_end_test(DLFL_RT_PASSED);
    }
    dlfl_rt_begin_test("dense");  // 200 of 300 probes: a bitset (38 bytes) beats 800
    for (int p = 0; p < 200; ++p) __dlfl_map[p].hit = 1;
    dlfl_rt_end_test(DLFL_RT_FAILED);
    return 0;
  });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  dlfl_rt_file_header h;
  std::ifstream(path(), std::ios::binary).read(reinterpret_cast<char*>(&h), sizeof h);
  EXPECT_EQ(h.record_count, 1001u);
  const std::uint64_t sparse = 1000 * (DLFL_RT_RECORD_HEADER_SIZE + 8 + 8);
  const std::uint64_t dense = DLFL_RT_RECORD_HEADER_SIZE + 8 + 40;
  EXPECT_EQ(fs::file_size(path()), h.records_offset + sparse + dense);
  EXPECT_EQ(h.records_end, fs::file_size(path()));
  const RuntimeSnapshot s = read_runtime_snapshot(path());
  ASSERT_EQ(s.tests.size(), 1001u);
  // Every position, at and across the boundaries of the blocks the runtime scans.
  for (std::uint32_t t = 0; t < 1000; ++t) {
    const std::uint32_t a = t % 300, b = (t + 1) % 300;
    ASSERT_EQ(s.tests[t].probes, (std::vector<std::uint32_t>{std::min(a, b), std::max(a, b)})) << t;
  }
  EXPECT_EQ(s.tests[1000].probes.size(), 200u);
  EXPECT_EQ(s.tests[1000].probes.back(), 199u);
  EXPECT_EQ(s.tests[1000].outcome, DLFL_RT_FAILED);
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
// the reader must refuse the file with one line, not read past it.
TEST_F(RuntimeApi, ReaderRejectsCorruptHeadersAndRecords) {
  in_child([] {
    dlfl_rt_begin_test("a");
    __dlfl_map[7].hit = 1;
    return dlfl_rt_end_test(DLFL_RT_PASSED);
  });
  const std::string good = [&] {
    std::ifstream in(path(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_NO_THROW(read_runtime_snapshot(path()));
  dlfl_rt_file_header original;
  std::memcpy(&original, good.data(), sizeof original);
  const auto corrupt = [&](const std::function<void(std::string&)>& edit) {
    std::string bytes = good;
    edit(bytes);
    std::ofstream(dir_ / "corrupt", std::ios::binary) << bytes;
    return dir_ / "corrupt";
  };
  const auto header = [&](const std::function<void(dlfl_rt_file_header&)>& edit) {
    return corrupt([&](std::string& bytes) {
      dlfl_rt_file_header h;
      std::memcpy(&h, bytes.data(), sizeof h);
      edit(h);
      std::memcpy(bytes.data(), &h, sizeof h);
    });
  };
  const auto record = [&](const std::function<void(dlfl_rt_record_header&)>& edit) {
    return corrupt([&](std::string& bytes) {
      dlfl_rt_record_header r;
      std::memcpy(&r, bytes.data() + original.records_offset, sizeof r);
      edit(r);
      std::memcpy(bytes.data() + original.records_offset, &r, sizeof r);
    });
  };
  const auto rejected = [](const fs::path& file) {
    try {
      read_runtime_snapshot(file);
    } catch (const dlfl::Error& e) {
      return std::string(e.what()).find('\n') == std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(rejected(header([](auto& h) { h.probe_count = ~std::uint64_t{0} - 4095; })));
  EXPECT_TRUE(rejected(header([](auto& h) { h.live_offset = ~std::uint64_t{0} - 10; })));
  EXPECT_TRUE(rejected(header([](auto& h) { h.records_end += 1; })));
  EXPECT_TRUE(rejected(header([](auto& h) { h.live_header_offset = ~std::uint64_t{0} - 63; })));
  EXPECT_TRUE(rejected(header([](auto& h) { h.version = 3; })));
  EXPECT_TRUE(rejected(header([](auto& h) { std::memcpy(h.magic, "DLFLRT01", 8); })));
  EXPECT_TRUE(rejected(record([](auto& r) { r.payload_bytes = ~std::uint64_t{0} - 3; })));
  EXPECT_TRUE(rejected(record([](auto& r) { r.name_length = ~std::uint32_t{0}; })));
  EXPECT_TRUE(rejected(record([](auto& r) { r.magic = 0; })));
  EXPECT_TRUE(rejected(record([](auto& r) { r.encoding = 7; })));
  EXPECT_TRUE(rejected(record([](auto& r) { r.hit_count = 2; })));
  EXPECT_TRUE(rejected(corrupt([&](std::string& bytes) {  // probe id 7 -> 7000 (> 300 probes)
    const std::uint32_t id = 7000;
    std::memcpy(bytes.data() + original.records_offset + DLFL_RT_RECORD_HEADER_SIZE + 8, &id, 4);
  })));
  EXPECT_TRUE(rejected(corrupt([&](std::string& bytes) { bytes.resize(bytes.size() - 4); })));
}

// DLFL_RT_TEST: the whole process is one test, in a file of its own (PATH.PID), from static
// initialisation on; a crash keeps what it reached, a fork child writes into the same
// test, a re-executed child writes its own file, and a harness's brackets change nothing.
class WholeProcess : public RuntimeApi {
 protected:
  // Runs the C fixture in `mode` as test `name`; returns {exit status, snapshots}.
  std::pair<int, std::vector<RuntimeSnapshot>> run(const std::string& mode, const std::string& name) {
    const std::string prefix = (dir_ / mode).string();
    const std::string cmd = "DLFL_RT_FILE='" + prefix + "' DLFL_RT_TEST='" + name + "' '" DLFL_RT_PROCESS "' " +
                            mode + " 2>/dev/null";
    const int status = std::system(cmd.c_str());
    std::vector<RuntimeSnapshot> snapshots;
    for (const auto& entry : fs::directory_iterator(dir_))
      if (entry.path().filename().string().rfind(mode + ".", 0) == 0)
        snapshots.push_back(read_runtime_snapshot(entry.path()));
    return {status, snapshots};
  }
  static std::vector<std::uint32_t> probes_of(const RuntimeSnapshot& s, const std::string& name) {
    EXPECT_TRUE(s.whole_process);
    EXPECT_TRUE(s.outside.empty());
    EXPECT_EQ(s.tests.size(), 1u);
    if (s.tests.size() != 1) return {};
    EXPECT_EQ(s.tests[0].name, name);
    EXPECT_EQ(s.tests[0].state, DLFL_RT_SLOT_RUNNING);
    return s.tests[0].probes;
  }
};

TEST_F(WholeProcess, ExitAndCrashKeepTheProcesssCoverage) {
  auto [pass, pass_files] = run("pass", "suite/pass one");
  EXPECT_EQ(WEXITSTATUS(pass), 0);
  ASSERT_EQ(pass_files.size(), 1u);
  EXPECT_EQ(probes_of(pass_files[0], "suite/pass one"), (std::vector<std::uint32_t>{0, 1}));
  auto [segv, segv_files] = run("segv", "segv");
  EXPECT_NE(WEXITSTATUS(segv), 0);
  ASSERT_EQ(segv_files.size(), 1u);
  EXPECT_EQ(probes_of(segv_files[0], "segv"), (std::vector<std::uint32_t>{0, 3}));
  auto [bracket, bracket_files] = run("bracket", "b");
  EXPECT_EQ(WEXITSTATUS(bracket), 0);
  ASSERT_EQ(bracket_files.size(), 1u);
  EXPECT_EQ(probes_of(bracket_files[0], "b"), (std::vector<std::uint32_t>{0, 10, 11, 12}));
}

TEST_F(WholeProcess, ForkChildrenCountForTheTest) {
  auto [fork_status, fork_files] = run("fork", "f");
  EXPECT_EQ(WEXITSTATUS(fork_status), 0);
  ASSERT_EQ(fork_files.size(), 1u);  // the child wrote into its parent's live map
  EXPECT_EQ(probes_of(fork_files[0], "f"), (std::vector<std::uint32_t>{0, 6, 7}));
  auto [exec_status, exec_files] = run("exec", "e");
  EXPECT_EQ(WEXITSTATUS(exec_status), 0);
  ASSERT_EQ(exec_files.size(), 2u);  // the re-executed child has a file of its own
  std::set<std::vector<std::uint32_t>> seen;
  for (const auto& f : exec_files) seen.insert(probes_of(f, "e"));
  EXPECT_EQ(seen, (std::set<std::vector<std::uint32_t>>{{0, 8}, {0, 9}}));
}

// Device coverage (a stand-in flush callback, as cuda_probe.h registers) reaches the test:
// at exit, before the CUDA runtime's own exit handler; at a harness's brackets; not on a
// crash, which keeps only what was flushed before it.
TEST_F(WholeProcess, DeviceMapsAreFlushedIntoTheTest) {
  auto [exit_status, exit_files] = run("device", "d");
  EXPECT_EQ(WEXITSTATUS(exit_status), 0);
  ASSERT_EQ(exit_files.size(), 1u);
  EXPECT_EQ(probes_of(exit_files[0], "d"), (std::vector<std::uint32_t>{0, 13, 14}));
  auto [bracket_status, bracket_files] = run("device-bracket", "db");
  EXPECT_EQ(WEXITSTATUS(bracket_status), 0);
  ASSERT_EQ(bracket_files.size(), 1u);
  EXPECT_EQ(probes_of(bracket_files[0], "db"), (std::vector<std::uint32_t>{0, 11, 13, 14}));
  auto [crash_status, crash_files] = run("device-crash", "dc");
  EXPECT_NE(WEXITSTATUS(crash_status), 0);
  ASSERT_EQ(crash_files.size(), 1u);
  EXPECT_EQ(probes_of(crash_files[0], "dc"), (std::vector<std::uint32_t>{0, 13, 14}));
}

}  // namespace

namespace {

// The images whose instrumented code registered probes: this test program (its probe.h
// constructor registered before main), by its real path, with the map id it registered.
TEST(RuntimeImages, NameTheProgramThatRegisteredProbes) {
  std::uint64_t map_id = 0;
  const char* path = dlfl_rt_image(0, &map_id);
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(fs::path(path), fs::read_symlink("/proc/self/exe"));
  EXPECT_EQ(map_id, 0x1234u);
  EXPECT_EQ(dlfl_rt_image(1, nullptr), nullptr);
}

}  // namespace
