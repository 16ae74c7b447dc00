// `dlfl bugset import denchmark` and `dlfl bugset stats` end to end: a small synthetic
// Denchmark checkout (warnings, skip counts, --strict, atomic output), and the real
// snapshot from ../shared (skipped when absent).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string report(const std::string& id, const std::string& modifications) {
  return "<bug_data>\n<bug id='" + id + "' open_date='2020-01-08T08:53:53Z' closed_time='2020-01-09T00:57:33Z'>\n"
         "<summary>Crash in conv</summary>\n<description>it crashes</description>\n<comments></comments>\n</bug>\n"
         "<commit id='ca0c4b8f' date='2020-01-09 08:57:32+08:00'>\n" +
         modifications + "</commit>\n</bug_data>\n";
}

const std::string kModify =
    "<modification change_type='MODIFY' old_name='src\\conv.cc' new_name='src\\conv.cc'>\n"
    " <modified_lines><added_lines>3,4</added_lines><deleted_lines>3</deleted_lines></modified_lines>\n"
    "</modification>\n";

std::size_t lines_of(const std::string& text) {
  std::size_t n = 0;
  for (const char c : text) n += c == '\n';
  return n;
}

class BugsetCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path reports = dir_ / "Denchmark_BRs/Generator/data/final_dataset/full/a+a";
    fs::create_directories(reports);
    write_text(reports / "1.xml", report("1", kModify));
    write_text(reports / "2.xml", report("2", kModify));
    write_text(reports / "3.xml", "<bug_data><bug id='3'>");  // truncated
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  TempDir dir_;
};

TEST_F(BugsetCommand, ImportSkipsMalformedReportsWithWarnings) {
  const RunResult r = run_dlfl("bugset import denchmark " + path("Denchmark_BRs") + " -o " + path("manifest.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: "));
  EXPECT_THAT(r.err, HasSubstr("a+a/3.xml:1: XML parse error"));
  EXPECT_THAT(r.err, HasSubstr("dlfl: imported 2 bugs; skipped 1 malformed reports"));
  const std::string manifest = slurp(dir_ / "manifest.jsonl");
  ASSERT_EQ(lines_of(manifest), 2u);
  const auto first = nlohmann::json::parse(manifest.substr(0, manifest.find('\n')));
  EXPECT_EQ(first["id"], "a+a#1");
  EXPECT_EQ(first["files"][0]["old_name"], "src/conv.cc");
  EXPECT_EQ(first["files"][0]["deleted_lines"], nlohmann::json::array({3}));
}

TEST_F(BugsetCommand, StrictImportFailsAndWritesNothing) {
  const RunResult r =
      run_dlfl("bugset import denchmark " + path("Denchmark_BRs") + " --strict -o " + path("manifest.jsonl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("dlfl: error: "));
  // The first problem is fatal: here the missing project metadata (report.csv), which a
  // lenient import only warns about; the truncated 3.xml would be next.
  EXPECT_THAT(r.err, HasSubstr("Denchmark_BRs/"));
  EXPECT_EQ(lines_of(r.err), 1u);
  EXPECT_FALSE(fs::exists(dir_ / "manifest.jsonl"));
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir_.path())) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"Denchmark_BRs"});  // no temporary file either
}

TEST_F(BugsetCommand, StatsOfAManifest) {
  ASSERT_EQ(run_dlfl("bugset import denchmark " + path("Denchmark_BRs") + " -o " + path("m.jsonl")).exit_code, 0);
  const RunResult json = run_dlfl("bugset stats " + path("m.jsonl") + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["bugs"], 2);
  EXPECT_EQ(doc["projects"], 1);
  EXPECT_EQ(doc["fix_size"]["at_most_10"], 2);  // 3 changed lines each
  EXPECT_EQ(doc["bugs_touching_native"], 2);
  const RunResult table = run_dlfl("bugset stats " + path("m.jsonl"));
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, StartsWith("Bugs: 2 from 1 projects, 2 changed files\n"));
  EXPECT_THAT(table.out, HasSubstr("fixes of at most 10 lines: 2 of 2 (100.0%"));
  EXPECT_THAT(table.out, HasSubstr("Reproduction candidates (dlfl bugset reproduce): 0 (0.0%)"));
  const RunResult bad = run_dlfl("bugset stats " + path("Denchmark_BRs/Generator/data/final_dataset/full/a+a/1.xml"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, StartsWith("dlfl: error: "));
  EXPECT_EQ(run_dlfl("bugset").exit_code, 2);  // a subcommand is required
}

// A dlfl away from its runtime cannot keep a crashing test's coverage: a reproduction
// says so before it starts instead of losing that coverage silently.
TEST_F(BugsetCommand, ReproduceWithoutTheCrashHandlerSaysSo) {
  ASSERT_EQ(run_dlfl("bugset import denchmark " + path("Denchmark_BRs") + " -o " + path("m.jsonl")).exit_code, 0);
  const fs::path lonely = dir_ / "bin" / "dlfl";
  fs::create_directories(lonely.parent_path());
  std::error_code ec;
  fs::create_hard_link(DLFL_BINARY, lonely, ec);
  if (ec) GTEST_SKIP() << "cannot hard-link " << DLFL_BINARY << " to " << lonely << ": " << ec.message();
  const std::string args =
      " bugset reproduce " + path("m.jsonl") + " --bug a+a#1 --repos " + path("clones") + " -o " + path("out");
  const RunResult away = run_command(lonely.string() + args);
  EXPECT_THAT(away.err, HasSubstr("dlfl: warning: libdlfl_crash_dump.so was not found next to this dlfl"));
  EXPECT_THAT(away.err, HasSubstr("a test that crashes or times out keeps no coverage"));
  const RunResult home = run_dlfl(args);
  EXPECT_THAT(home.err, Not(HasSubstr("libdlfl_crash_dump.so"))) << home.err;
}

TEST(BugsetCommandReal, ImportsTheDenchmarkSnapshotWithLabels) {
  const fs::path shared = DLFL_SHARED_DIR;
  const fs::path tarball = shared / "bugsets/denchmark/Denchmark_BRs.tar.xz";
  if (!fs::exists(tarball)) GTEST_SKIP() << "no Denchmark snapshot at " << tarball << " (needs ../shared)";
  // The data may be read, not copied into the project: unpack to a temporary directory
  // (on tmpfs when there is one: thousands of small files).
  TempDir dir;
  const std::string unpack = "tar -xJf '" + tarball.string() + "' -C '" + dir.path().string() + "'";
  ASSERT_EQ(std::system(unpack.c_str()), 0) << unpack;
  const std::string manifest = (dir / "manifest.jsonl").string();
  const RunResult r = run_dlfl("bugset import denchmark " + dir.path().string() + " -o " + manifest + " --labels " +
                               (shared / "bugsets/jahan2025/labels.csv").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("dlfl: imported 4576 bugs"));
  EXPECT_THAT(r.err, HasSubstr("dlfl: labels for "));
  const RunResult stats = run_dlfl("bugset stats " + manifest + " --format json");
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const auto doc = nlohmann::json::parse(stats.out);
  EXPECT_EQ(doc["bugs"], 4576);
  EXPECT_EQ(doc["projects"], 193);
  EXPECT_GT(doc["labelled_bugs"].get<int>(), 300);
  // Measured on this snapshot: C/C++/CUDA fixed outside the tests and a test touched.
  EXPECT_EQ(doc["reproduction"]["native_fix"], 835);
  EXPECT_EQ(doc["reproduction"]["candidates"], 383);
  EXPECT_EQ(doc["reproduction"]["cmake_checked"], false);
}

}  // namespace
}  // namespace dlfl::testing
