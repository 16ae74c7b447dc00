// Tests on the real Denchmark snapshot (../shared/bugsets): extracted once per test
// process into a temporary directory, imported, and checked against counts pinned from
// the 2023-09-06 snapshot (commit 4f40b47c). Skipped where the data is absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>

#include "dlfl/lab/eval/bugset_labels.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/eval/bugset_stats.h"
#include "dlfl/lab/eval/denchmark.h"

namespace dlfl::eval {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::Pair;

const fs::path shared_dir = DLFL_SHARED_DIR;
const fs::path tarball = shared_dir / "bugsets/denchmark/Denchmark_BRs.tar.xz";
const fs::path labels_csv = shared_dir / "bugsets/jahan2025/labels.csv";

// Where to unpack: $TMPDIR when the user set one, else /dev/shm when writable (4,576
// small files: on a busy ext4 /tmp extraction took 11.6 s, on tmpfs 1.4 s), else the
// system temporary directory.
fs::path scratch_parent() {
  std::error_code error;
  if (std::getenv("TMPDIR") == nullptr && fs::is_directory("/dev/shm", error) &&
      access("/dev/shm", W_OK) == 0)
    return "/dev/shm";
  return fs::temp_directory_path();
}

// The data is licensed for reading, not for copying into the project: it lives in a
// temporary directory for the life of the test process only.
class DenchmarkReal : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(tarball)) {
      skip_reason_ = "no Denchmark snapshot at " + tarball.string() + " (needs ../shared)";
      return;
    }
    std::string pattern = (scratch_parent() / "dlfl-denchmark-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      failure_ = "cannot create a temporary directory";
      return;
    }
    extract_dir_ = pattern;
    const std::string command = "tar -xJf '" + tarball.string() + "' -C '" + extract_dir_.string() + "'";
    if (std::system(command.c_str()) != 0) {
      failure_ = "extraction failed: " + command;
      return;
    }
    result_ = import_denchmark(extract_dir_);
  }

  static void TearDownTestSuite() {
    result_.reset();
    if (!extract_dir_.empty()) fs::remove_all(extract_dir_);
  }

  void SetUp() override {
    if (!skip_reason_.empty()) GTEST_SKIP() << skip_reason_;
    ASSERT_TRUE(failure_.empty()) << failure_;
    ASSERT_TRUE(result_.has_value());
  }

  static const std::vector<BugReport>& bugs() { return result_->bugs; }

  static inline std::string skip_reason_, failure_;
  static inline fs::path extract_dir_;
  static inline std::optional<DenchmarkImport> result_;
};

TEST_F(DenchmarkReal, ImportsEveryReportCleanly) {
  // REFERENCE §5: 4,577 reports in the release, one (apple+turicreate#834) missing here.
  EXPECT_EQ(bugs().size(), 4576u);
  EXPECT_EQ(result_->skipped_reports, 0u);
  EXPECT_THAT(result_->warnings, ::testing::IsEmpty());
  EXPECT_EQ(find_bug(bugs(), "apple+turicreate#834"), nullptr);
  const BugsetStats stats = bugset_stats(bugs());
  EXPECT_EQ(stats.projects, 193u);
  EXPECT_EQ(stats.file_changes, 21230u);
  EXPECT_THAT(stats.file_changes_per_change_type,
              ElementsAre(Pair("ADD", 913), Pair("DELETE", 449), Pair("MODIFY", 18162), Pair("RENAME", 1706)));
}

TEST_F(DenchmarkReal, BugsPerCategory) {
  // Dataset.xlsx's "Summary(Paper)" gives the same numbers, with Tool at 895 (834 above).
  EXPECT_THAT(bugset_stats(bugs()).bugs_per_category,
              ElementsAre(Pair("Application", 228), Pair("Compiler", 60), Pair("Else", 397),
                          Pair("Engine", 87), Pair("Framework", 1466), Pair("Library", 1169),
                          Pair("Platform", 275), Pair("Tool", 894)));
}

TEST_F(DenchmarkReal, OneReportFieldByField) {
  // paddlepaddle+paddle/24252.xml: one method-level MODIFY, one ADD of a new test.
  const BugReport* bug = find_bug(bugs(), "paddlepaddle+paddle#24252");
  ASSERT_NE(bug, nullptr);
  EXPECT_EQ(bug->project, "paddlepaddle+paddle");
  EXPECT_EQ(bug->number, "24252");
  EXPECT_EQ(bug->category, "Framework");
  EXPECT_THAT(bug->languages, ElementsAre("python", "go", "c++", "c"));
  EXPECT_THAT(bug->dl_frameworks, ElementsAre("tensorflow", "caffe", "torch", "paddle"));
  EXPECT_EQ(bug->title, "Bug report");
  // The body is checked by shape, not quoted: the data may be read, not copied here.
  EXPECT_TRUE(bug->body.starts_with("<denchmark-link:https://github.com/"));  // &lt; decoded
  EXPECT_TRUE(bug->body.ends_with("but not"));                                 // blanks trimmed
  EXPECT_EQ(bug->body.size(), 233u);
  EXPECT_EQ(bug->opened, "2020-04-29T01:54:10Z");
  EXPECT_EQ(bug->closed, "2020-05-01T01:33:35Z");
  EXPECT_EQ(bug->fix_commit, "89c76a5342268f319929c6afa162a3c3e9fbe9d5");
  EXPECT_EQ(bug->fix_date, "2020-05-01 09:32:50+08:00");
  ASSERT_EQ(bug->files.size(), 2u);

  const FileChange& io = bug->files[0];
  EXPECT_EQ(io.change_type, ChangeType::modify);
  EXPECT_EQ(io.old_name, "python/paddle/fluid/layers/io.py");
  EXPECT_EQ(io.new_name, "python/paddle/fluid/layers/io.py");
  EXPECT_THAT(io.deleted_lines, ElementsAre(924));  // listed under <method>, not <modified_lines>
  EXPECT_THAT(io.added_lines, ElementsAre(924));
  ASSERT_EQ(io.methods.size(), 1u);
  EXPECT_EQ(io.methods[0].name, "load");
  EXPECT_EQ(io.methods[0].parameters, "out,file_path,load_as_fp16");
  EXPECT_EQ(io.methods[0].start_line, 900u);
  EXPECT_EQ(io.methods[0].end_line, 924u);

  const FileChange& test = bug->files[1];
  EXPECT_EQ(test.change_type, ChangeType::add);
  EXPECT_EQ(test.old_name, "");
  EXPECT_EQ(test.new_name, "python/paddle/fluid/tests/unittests/test_load_op.py");
  EXPECT_TRUE(test.deleted_lines.empty());
  EXPECT_TRUE(test.added_lines.empty());

  EXPECT_THAT(ground_truth(*bug),
              ElementsAre(GroundTruthItem{"python/paddle/fluid/layers/io.py", 924, "load"},
                          GroundTruthItem{"python/paddle/fluid/tests/unittests/test_load_op.py", 0, ""}));
}

TEST_F(DenchmarkReal, NativeCodeAndFixSizes) {
  const BugsetStats stats = bugset_stats(bugs());
  EXPECT_EQ(stats.bugs_touching_native, 858u);  // REFERENCE §5: "about 800"
  EXPECT_EQ(stats.bugs_touching_cuda, 36u);
  EXPECT_EQ(stats.bugs_with_native_ground_truth, 857u);
  const FixSizeSummary& size = stats.fix_size;
  EXPECT_EQ(size.without_lines, 9u);
  EXPECT_EQ(size.at_most_10, 1627u);  // 35.6% of 4,567, against Yu et al.'s 48%
  EXPECT_NEAR(size.share_at_most_10, 1627.0 / 4567, 1e-12);
  EXPECT_EQ(size.median, 20.0);
  EXPECT_EQ(size.max, 24954u);
}

TEST_F(DenchmarkReal, LabelsJoinEveryAnnotatedDenchmarkBug) {
  if (!fs::exists(labels_csv)) GTEST_SKIP() << "no " << labels_csv;
  const LabelTable table = read_jahan_labels(labels_csv);
  EXPECT_THAT(table.warnings, ::testing::IsEmpty());
  EXPECT_EQ(table.by_id.size(), 771u);   // 384 Denchmark + 387 BuGL ids
  EXPECT_EQ(table.duplicate_rows, 1u);   // apache+incubator-mxnet#11077, twice alike
  std::vector<BugReport> labelled = bugs();
  const LabelJoinResult join = join_labels(labelled, table);
  EXPECT_EQ(join.joined, 384u);
  EXPECT_THAT(join.unmatched_ids, ::testing::IsEmpty());
  const BugsetStats stats = bugset_stats(labelled);
  EXPECT_EQ(stats.labelled_bugs, 384u);
  EXPECT_THAT(stats.bugs_per_dl_bug_type,
              ElementsAre(Pair("(annotators disagree)", 4), Pair("(not a DL bug)", 131), Pair("API", 55),
                          Pair("GPU", 17), Pair("Model", 51), Pair("Tensor & Input", 22),
                          Pair("Training", 104)));
  EXPECT_EQ(stats.extrinsic_bugs, 145u);
  EXPECT_EQ(stats.intrinsic_bugs, 220u);
  EXPECT_EQ(stats.extrinsic_disputed, 19u);
}

TEST_F(DenchmarkReal, ManifestRoundTripsTheWholeSet) {
  std::stringstream stream;
  write_manifest(stream, bugs());
  const std::vector<BugReport> back = read_manifest(stream, "manifest.jsonl");
  ASSERT_EQ(back.size(), bugs().size());
  for (std::size_t k = 0; k < back.size(); ++k)
    ASSERT_EQ(manifest_line(back[k]), manifest_line(bugs()[k])) << bugs()[k].id;
}

}  // namespace
}  // namespace dlfl::eval
