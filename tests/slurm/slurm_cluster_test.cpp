// Against a running Slurm: scripts/slurm-test-cluster.sh starts a one-node cluster
// (slurmctld, slurmd, munge) around this binary (CTest's "slurm" test). The job-array
// example's own sbatch scripts collect the bundled example and merge it into the spectrum
// one `dlfl collect` gives; scripts/realbugs.sh --slurm runs the fixture study as job
// arrays and a dependent join, giving the page one machine gives (but for times), also
// when a task is requeued mid-run. Without a cluster (SLURM_CONF unset, or no node
// answers) every test fails saying so: a skipped test would prove nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "../lab/bench/realbugs_fixture.h"
#include "../support/shell_output.h"
#include "../support/spectrum_canonical.h"
#include "../support/test_files.h"
#include "dlfl/formats/native_format.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kSource = DLFL_SOURCE_DIR;

// stdout and stderr together, and whether the command succeeded.
struct ShellResult {
  std::string out;
  bool ok = false;
};
ShellResult sh(const std::string& command) {
  const ShellRun r = capture_shell("( " + command + " ) 2>&1");
  return {r.out, r.status == 0};
}

class SlurmCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* conf = std::getenv("SLURM_CONF");
    ASSERT_TRUE(conf && fs::exists(conf))
        << "no Slurm cluster: run this under scripts/slurm-test-cluster.sh run (CTest's slurm test does)";
    const ShellResult nodes = sh("sinfo --noheader --format=%T");
    ASSERT_TRUE(nodes.ok && nodes.out.find("idle") != std::string::npos) << "the cluster has no idle node:\n" << nodes.out;
  }
};

// Waits until every task of job `id` ended (at most 5 minutes); returns their states.
std::string wait_for_job(const std::string& id) {
  const std::set<std::string> running{"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "REQUEUE_HOLD",
                                      "REQUEUE_FED", "RESIZING", "SUSPENDED", "STAGE_OUT", "SIGNALING"};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  std::string states;
  while (std::chrono::steady_clock::now() < deadline) {
    states = shell_output("squeue --noheader --states=all --jobs=" + id + " --format=%T 2>&1");
    std::istringstream in(states);
    bool done = !states.empty();
    for (std::string state; std::getline(in, state);) done = done && !running.contains(state);
    if (done) return states;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return "still running after 5 minutes: " + states;
}

// The page without its times (the one line that differs between two runs alike).
std::string without_times(const std::string& page) {
  std::istringstream in(page);
  std::string kept;
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("Time per bug")) kept += line + "\n";
  return kept;
}

// Everything the jobs of a --slurm run logged, for a failure's message.
std::string job_logs(const fs::path& out) {
  return shell_output("for f in " + (out / "slurm").string() + "/*.log \"${DLFL_SLURM_DIR:-/nonexistent}\"/log/slurm*.log; do echo \"== $f\"; tail -n 30 \"$f\"; done 2>&1");
}

TEST_F(SlurmCluster, TheJobArrayExampleAndMergeGiveTheSpectrumOfOneCollect) {
  // examples/tensorlite's view tests with the slice_offset fault, built once (cached).
  const fs::path build = fs::path(DLFL_SLURM_FIXTURES) / "tensorlite";
  const ShellResult built = sh(std::string("cmake -S ") + (kSource / "tests/collect/fixtures/tensorlite_views").string() + " -B " +
                       build.string() + " -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=g++ " +
                       "-DCMAKE_CXX_FLAGS=--coverage -DTENSORLITE_DIR=" + (kSource / "examples/tensorlite").string() +
                       " -DTENSORLITE_FAULT_DEFINITION=TENSORLITE_FAULT_SLICE_OFFSET=1 >/dev/null && cmake --build " +
                       build.string() + " -j2");
  ASSERT_TRUE(built.ok) << built.out;
  const TempDir dir{"slurm-collect"};
  const std::string what = "--gtest " + (build / "views_tests").string() + " --coverage gcov --source-root " +
                           (kSource / "examples/tensorlite").string() +
                           " --exclude '*/tests/*' --filter 'Slice*:Grid/*:Select.*:Transpose.*'";
  const ShellResult whole = sh(std::string(DLFL_BINARY) + " collect " + what + " -j 2 -q -o " + (dir / "whole.dlfl").string());
  ASSERT_TRUE(whole.ok) << whole.out;

  // The example's sbatch scripts as they are, submitted from the project root; only the
  // logs go elsewhere than the root (command-line options come before #SBATCH lines).
  const fs::path shared = dir / "shared";
  const std::string env = "cd " + kSource.string() + " && export DLFL=" + DLFL_BINARY + " DLFL_SHARED=" + shared.string() +
                          " DLFL_COLLECT_ARGS=\"" + what + " -j 1\" && ";
  const ShellResult array = sh(env + "sbatch --parsable --output=" + (dir / "collect-%A_%a.log").string() +
                       " examples/jobarray/slurm-collect.sbatch");
  ASSERT_TRUE(array.ok) << array.out;
  const std::string job = array.out.substr(0, array.out.find_first_of(";\n"));
  const ShellResult merge = sh(env + "sbatch --parsable --dependency=afterok:" + job + " --output=" +
                       (dir / "merge-%j.log").string() + " examples/jobarray/slurm-merge.sbatch");
  ASSERT_TRUE(merge.ok) << merge.out;
  const std::string merge_job = merge.out.substr(0, merge.out.find('\n'));
  EXPECT_EQ(wait_for_job(job), "COMPLETED\nCOMPLETED\nCOMPLETED\nCOMPLETED\n")
      << shell_output("tail -n 20 " + dir.path().string() + "/*.log");
  ASSERT_EQ(wait_for_job(merge_job), "COMPLETED\n") << shell_output("tail -n 20 " + dir.path().string() + "/*.log");
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(fs::exists(shared / ("shard-" + std::to_string(i) + ".dlfl"))) << i;
  EXPECT_THAT(slurp(dir / ("merge-" + merge_job + ".log")), HasSubstr("merged 4 spectra: 18 tests (4 failing), "));
  const Spectrum single = io::read_native(dir / "whole.dlfl");
  EXPECT_EQ(canonical(io::read_native(shared / "sfl.dlfl")), canonical(single));
}

class SlurmStudy : public SlurmCluster {
 protected:
  void SetUp() override {
    SlurmCluster::SetUp();
    if (HasFatalFailure()) return;
    std::string error;
    fixture_ = make_realbugs_fixture(dir_.path(), DLFL_REPRODUCE_FIXTURE, DLFL_BUGSCPP_FIXTURE, error);
    ASSERT_TRUE(error.empty()) << error;
  }
  std::string realbugs(const std::string& args) const {
    return "DLFL=" + std::string(DLFL_BINARY) + " bash " + DLFL_REALBUGS_SCRIPT + " --repos " + fixture_.repos.string() +
           " --bugscpp " + fixture_.bugscpp.string() + " --lists " + fixture_.lists.string() + " " + args;
  }
  // The study run on this machine alone, once for the tests that compare with it: its
  // page and each side's eval.csv.
  const std::map<std::string, std::string>& single() {
    static std::map<std::string, std::string> outputs;
    if (outputs.empty()) {
      const ShellResult run = sh(realbugs("-o " + (dir_ / "single").string()));
      EXPECT_TRUE(run.ok) << run.out;
      for (const char* file : {"results.md", "dl/eval.csv", "traditional/eval.csv"})
        outputs[file] = slurp(dir_ / "single" / file);
    }
    return outputs;
  }
  // Submits the study with --slurm; returns the job ids by name (dl, traditional, report).
  std::map<std::string, std::string> submit(const fs::path& out, std::string& printed) const {
    const ShellResult run = sh(realbugs("--slurm --shards 2 --sbatch-args '--cpus-per-task=1' -o " + out.string()));
    printed = run.out;
    std::map<std::string, std::string> jobs;
    // Lines "NAME ID" only: the summary after them names the report too.
    std::istringstream in(run.out);
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string name, id, more;
      if ((words >> name >> id) && !(words >> more) && (name == "dl" || name == "traditional" || name == "report") &&
          id.find_first_not_of("0123456789") == std::string::npos)
        jobs[name] = id;
    }
    return jobs;
  }

  TempDir dir_{"slurm-study"};
  RealbugsFixture fixture_;
};

TEST_F(SlurmStudy, TheStudyAsJobArraysAndAJoinGivesThePageOfOneMachine) {
  const fs::path out = dir_ / "sharded";
  std::string printed;
  const auto jobs = submit(out, printed);
  ASSERT_EQ(jobs.size(), 3u) << printed;
  EXPECT_THAT(printed, HasSubstr("the page will be " + out.string() + "/results.md"));
  EXPECT_EQ(wait_for_job(jobs.at("dl")), "COMPLETED\nCOMPLETED\n") << job_logs(out);
  EXPECT_EQ(wait_for_job(jobs.at("traditional")), "COMPLETED\nCOMPLETED\n") << job_logs(out);
  ASSERT_EQ(wait_for_job(jobs.at("report")), "COMPLETED\n") << job_logs(out);
  // Each task reproduced its shard only: ministr#1 in shard 1, ministr#2 in shard 0 (the
  // split of the bug ids' hash); the dl side's shard 1 holds none of its two bugs.
  EXPECT_THAT(slurp(out / "traditional/shards/1/results.jsonl"), HasSubstr("\"fault\":\"1\""));
  EXPECT_THAT(slurp(out / "traditional/shards/0/results.jsonl"), HasSubstr("\"fault\":\"2\""));
  EXPECT_EQ(slurp(out / "dl/shards/1/results.jsonl"), "");
  const std::string page = single().at("results.md");
  ASSERT_THAT(page, HasSubstr("## DL side\n\n2 bugs listed, 2 run, 1 kept"));
  EXPECT_EQ(without_times(slurp(out / "results.md")), without_times(page));
  for (const std::string side : {"dl", "traditional"})
    EXPECT_EQ(slurp(out / side / "eval.csv"), single().at(side + "/eval.csv")) << side;
}

TEST_F(SlurmStudy, ATaskRequeuedMidRunResumesItsShardAndTheStudyIsTheSame) {
  // calc#5 (which does not build: quick) before calc#1 (two builds and test runs), both
  // in the dl side's shard 0: the task is requeued once calc#5 is recorded.
  std::string list = slurp(fixture_.lists / "dl.jsonl");
  const auto second = list.find("{\"id\": \"fixture+calc#5\"");
  ASSERT_NE(second, std::string::npos);
  write_text(fixture_.lists / "dl.jsonl", list.substr(second) + list.substr(0, second));
  const fs::path out = dir_ / "requeued";
  std::string printed;
  const auto jobs = submit(out, printed);
  ASSERT_EQ(jobs.size(), 3u) << printed;
  const std::string task = jobs.at("dl") + "_0";
  const fs::path store = out / "dl/shards/0/results.jsonl";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (slurp(store).find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const std::string before = slurp(store);
  ASSERT_THAT(before, HasSubstr("\"fault\":\"5\"")) << job_logs(out);
  ASSERT_EQ(before.find('\n'), before.size() - 1) << "the task finished before it could be requeued";
  const ShellResult requeue = sh("scontrol requeue " + task);
  ASSERT_TRUE(requeue.ok) << requeue.out;
  // The requeued task starts again once Slurm lets it (the test cluster's cred_expire + 1 s
  // after the requeue), when its first run is gone: starting it earlier races the first
  // run's clean-up, and its launch can fail.
  ASSERT_EQ(wait_for_job(jobs.at("report")), "COMPLETED\n") << job_logs(out);
  EXPECT_EQ(wait_for_job(jobs.at("dl")), "COMPLETED\nCOMPLETED\n");
  // The task's log (appended to by both runs): the second resumed the first's record.
  const std::string log = slurp(out / "slurm" / ("dl-" + jobs.at("dl") + "_0.log"));
  EXPECT_THAT(log, HasSubstr("1 bugs were finished by an earlier run")) << log;
  const std::string after = slurp(store);
  EXPECT_EQ(after.substr(0, before.size()), before);
  EXPECT_THAT(after.substr(before.size()), HasSubstr("\"fault\":\"1\""));
  EXPECT_EQ(without_times(slurp(out / "results.md")), without_times(single().at("results.md")));
}

}  // namespace
}  // namespace dlfl::testing
