// Tests for the Denchmark importer on small synthetic reports: the XML shape, line lists
// inside and outside methods, 'None' and backslash paths, malformed reports (skipped with
// a warning, or fatal in strict mode) and the project metadata files.
#include "dlfl/lab/eval/denchmark.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "denchmark_zip_writer.h"
#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A report as Denchmark writes one, with `modifications` inside its commit.
std::string report_xml(const std::string& id, const std::string& modifications) {
  return "<bug_data>\n<bug id='" + id +
         "' author='a' open_date='2020-01-08T08:53:53Z' closed_time='2020-01-09T00:57:33Z'>\n"
         " \t<summary>Crash in &lt;conv&gt;</summary>\n"
         " \t<description>\n first line\n  second line\n \t</description>\n"
         " \t<comments>\n \t</comments>\n </bug>\n"
         "<commit id='ca0c4b8f' author='b' date='2020-01-09 08:57:32+08:00'>\n"
         " \t<dmm_unit complexity='None' interfacing='None' size='None'></dmm_unit>\n" +
         modifications + " </commit>\n</bug_data>\n";
}

const std::string modify_with_method =
    " <modification change_type='MODIFY' old_name='src\\ops\\conv.cc' new_name='src\\ops\\conv.cc'>\n"
    "  <file_info nloc='1' complexity='1' token_count='1'></file_info>\n"
    "  <method name='ns::Conv::Run' parameters='ctx'>\n"
    "   <method_info nloc='9' complexity='2' token_count='50' nesting_level='0' start_line='20' end_line='40'></method_info>\n"
    "   <added_lines>31,32</added_lines>\n"
    "   <deleted_lines>30</deleted_lines>\n"
    "  </method>\n"
    "  <method name='ns::Conv::Run.lambda' parameters=''>\n"
    "   <method_info nloc='2' complexity='1' token_count='5' nesting_level='1' start_line='29' end_line='31'></method_info>\n"
    "   <added_lines></added_lines>\n"
    "   <deleted_lines>30</deleted_lines>\n"
    "  </method>\n"
    "  <modified_lines>\n"
    "   <added_lines>3</added_lines>\n"
    "   <deleted_lines>2,7</deleted_lines>\n"
    "  </modified_lines>\n"
    " </modification>\n";

const std::string add_file =
    " <modification change_type='ADD' old_name='None' new_name='tests\\test_conv.py'>\n"
    "  <file_info nloc='None' complexity='None' token_count='None'></file_info>\n"
    " </modification>\n";

BugReport parse(const std::string& xml, const std::string& stem = "42") {
  return parse_denchmark_report(xml, "owner+repo", stem, "owner+repo/" + stem + ".xml");
}

TEST(DenchmarkReport, ReadsEveryField) {
  const BugReport bug = parse(report_xml("42", modify_with_method + add_file));
  EXPECT_EQ(bug.id, "owner+repo#42");
  EXPECT_EQ(bug.project, "owner+repo");
  EXPECT_EQ(bug.number, "42");
  EXPECT_EQ(bug.title, "Crash in <conv>");
  EXPECT_EQ(bug.body, "first line\n  second line");
  EXPECT_EQ(bug.opened, "2020-01-08T08:53:53Z");
  EXPECT_EQ(bug.closed, "2020-01-09T00:57:33Z");
  EXPECT_EQ(bug.fix_commit, "ca0c4b8f");
  EXPECT_EQ(bug.fix_date, "2020-01-09 08:57:32+08:00");
  EXPECT_TRUE(bug.category.empty());
  ASSERT_EQ(bug.files.size(), 2u);
}

TEST(DenchmarkReport, FileLinesAreTheUnionOfMethodAndNonMethodLines) {
  const BugReport bug = parse(report_xml("42", modify_with_method));
  const FileChange& file = bug.files.at(0);
  EXPECT_EQ(file.change_type, ChangeType::modify);
  EXPECT_EQ(file.old_name, "src/ops/conv.cc");  // backslashes converted
  EXPECT_EQ(file.new_name, "src/ops/conv.cc");
  EXPECT_THAT(file.deleted_lines, ElementsAre(2, 7, 30));  // 30 listed twice (nested lambda)
  EXPECT_THAT(file.added_lines, ElementsAre(3, 31, 32));
  ASSERT_EQ(file.methods.size(), 2u);
  EXPECT_EQ(file.methods[0].name, "ns::Conv::Run");
  EXPECT_EQ(file.methods[0].parameters, "ctx");
  EXPECT_EQ(file.methods[0].start_line, 20u);
  EXPECT_EQ(file.methods[0].end_line, 40u);
  EXPECT_THAT(file.methods[0].deleted_lines, ElementsAre(30));
  EXPECT_THAT(file.methods[0].added_lines, ElementsAre(31, 32));
  EXPECT_TRUE(file.methods[1].added_lines.empty());
}

TEST(DenchmarkReport, NoneNamesAndDenchmarksAddQuirk) {
  const std::string add_reporting_old_name =
      " <modification change_type='ADD' old_name='a.png' new_name='a.png'></modification>\n"
      " <modification change_type='DELETE' old_name='old\\gone.py' new_name='None'></modification>\n"
      " <modification change_type='RENAME' old_name='x\\a.sh' new_name='y\\a.sh'></modification>\n";
  const BugReport bug = parse(report_xml("42", add_file + add_reporting_old_name));
  ASSERT_EQ(bug.files.size(), 4u);
  EXPECT_EQ(bug.files[0].old_name, "");
  EXPECT_EQ(bug.files[0].new_name, "tests/test_conv.py");
  EXPECT_EQ(bug.files[0].change_type, ChangeType::add);
  EXPECT_EQ(bug.files[1].old_name, "");  // an added file has no old name, whatever PyDriller says
  EXPECT_EQ(bug.files[1].new_name, "a.png");
  EXPECT_EQ(bug.files[2].old_name, "old/gone.py");
  EXPECT_EQ(bug.files[2].new_name, "");
  EXPECT_EQ(bug.files[2].path(), "old/gone.py");
  EXPECT_EQ(bug.files[3].old_name, "x/a.sh");
  EXPECT_EQ(bug.files[3].new_name, "y/a.sh");
}

// The message a malformed report gets, or "" when it parses.
std::string error_of(const std::string& xml, const std::string& stem = "42") {
  try {
    parse(xml, stem);
    return {};
  } catch (const Error& error) {
    return error.what();
  }
}

TEST(DenchmarkReport, MalformedReportsNameFileAndLine) {
  EXPECT_THAT(error_of("<bug_data><bug id='42'>"), HasSubstr("owner+repo/42.xml:1: XML parse error"));
  EXPECT_EQ(error_of("<other/>"), "owner+repo/42.xml: no <bug_data> element");
  EXPECT_THAT(error_of(report_xml("41", "")), HasSubstr("does not match the file name"));
  EXPECT_THAT(error_of(report_xml("42", "")), ::testing::IsEmpty());  // no files is fine
  const std::string bad_line =
      " <modification change_type='MODIFY' old_name='a' new_name='a'>\n"
      "  <modified_lines><added_lines>3,x</added_lines><deleted_lines></deleted_lines></modified_lines>\n"
      " </modification>\n";
  EXPECT_EQ(error_of(report_xml("42", bad_line)),
            "owner+repo/42.xml:14: <added_lines>: \"x\" is not a positive line number");
  const std::string zero_line =
      " <modification change_type='MODIFY' old_name='a' new_name='a'>"
      "<modified_lines><deleted_lines>0</deleted_lines></modified_lines></modification>\n";
  EXPECT_THAT(error_of(report_xml("42", zero_line)), HasSubstr("\"0\" is not a positive line number"));
  const std::string bad_type = " <modification change_type='MOVE' old_name='a' new_name='b'/>\n";
  EXPECT_EQ(error_of(report_xml("42", bad_type)), "owner+repo/42.xml:13: unknown change_type \"MOVE\"");
  const std::string no_name = " <modification change_type='MODIFY' old_name='None' new_name='a'/>\n";
  EXPECT_THAT(error_of(report_xml("42", no_name)), HasSubstr("without a file name"));
  std::string two_commits = report_xml("42", "");
  two_commits.insert(two_commits.rfind("</bug_data>"), "<commit id='x'></commit>\n");
  EXPECT_THAT(error_of(two_commits), HasSubstr("more than one <commit>"));
}

// A Denchmark_BRs tree in a fresh temporary directory, removed at the end.
class DenchmarkTree : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "dlfl-dench-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const fs::path& relative, const std::string& content) {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
  }
  void write_report(const std::string& project, const std::string& id, const std::string& xml) {
    write(fs::path("Denchmark_BRs") / std::string(denchmark_reports_subdir) / project / (id + ".xml"), xml);
  }

  fs::path root_;
};

TEST_F(DenchmarkTree, SkipsMalformedReportsWithAWarningAndCountsThem) {
  write_report("b+b", "7", report_xml("7", add_file));
  write_report("a+a", "10", report_xml("10", modify_with_method));
  write_report("a+a", "9", report_xml("9", ""));
  write_report("a+a", "11", "<bug_data><bug id='11'>");  // truncated
  write_report("a+a", "notes", "ignored: not a report");
  write(fs::path("Denchmark_BRs") / std::string(denchmark_reports_subdir) / "a+a" / "README.md", "x");
  write("Denchmark_BRs/report.csv",
        "project,code-bug-num,bug-num,avglines,torch,mxnet,python,c++,topics\r\n"
        "a+a,1,2,3.5,O,X,O,O,torch\r\n");
  write("Denchmark_BRs/Dataset.xlsx",
        test::project_classes_xlsx(test::project_class_row(2, "a+a", "Framework")));

  const DenchmarkImport result = import_denchmark(root_);  // the directory holding Denchmark_BRs
  ASSERT_EQ(result.bugs.size(), 3u);
  EXPECT_EQ(result.bugs[0].id, "a+a#9");  // numeric order within a project
  EXPECT_EQ(result.bugs[1].id, "a+a#10");
  EXPECT_EQ(result.bugs[2].id, "b+b#7");
  EXPECT_EQ(result.bugs[0].category, "Framework");
  EXPECT_THAT(result.bugs[0].languages, ElementsAre("python", "c++"));
  EXPECT_THAT(result.bugs[0].dl_frameworks, ElementsAre("torch"));
  EXPECT_EQ(result.bugs[2].category, "");
  EXPECT_TRUE(result.bugs[2].languages.empty());
  EXPECT_EQ(result.skipped_reports, 2u);
  ASSERT_EQ(result.warnings.size(), 4u);  // file order, then projects without metadata
  EXPECT_THAT(result.warnings[0], HasSubstr("a+a/11.xml:1: XML parse error"));
  EXPECT_THAT(result.warnings[1], HasSubstr("a+a/notes.xml:1: XML parse error"));
  EXPECT_THAT(result.warnings[2], HasSubstr("Dataset.xlsx: no category for project b+b"));
  EXPECT_THAT(result.warnings[3], HasSubstr("report.csv: no row for project b+b"));
}

TEST_F(DenchmarkTree, MissingMetadataIsAWarning) {
  write_report("a+a", "1", report_xml("1", ""));
  const DenchmarkImport result = import_denchmark(root_ / "Denchmark_BRs");
  ASSERT_EQ(result.bugs.size(), 1u);
  ASSERT_EQ(result.warnings.size(), 2u);
  EXPECT_THAT(result.warnings[0], HasSubstr("report.csv: cannot read: No such file"));
  EXPECT_THAT(result.warnings[0], HasSubstr("(languages left empty)"));
  EXPECT_THAT(result.warnings[1], HasSubstr("Dataset.xlsx: cannot read: No such file"));
}

TEST_F(DenchmarkTree, StrictModeThrowsNamingTheFile) {
  write("Denchmark_BRs/report.csv", "project,python\na+a,O\n");
  write("Denchmark_BRs/Dataset.xlsx",
        test::project_classes_xlsx(test::project_class_row(2, "a+a", "Tool")));
  write_report("a+a", "1", report_xml("1", ""));
  write_report("a+a", "2", report_xml("3", ""));  // id does not match the file name
  DenchmarkImportOptions strict;
  strict.strict = true;
  strict.threads = 2;
  try {
    import_denchmark(root_ / "Denchmark_BRs", strict);
    FAIL() << "strict import accepted a malformed report";
  } catch (const Error& error) {
    EXPECT_THAT(std::string(error.what()), HasSubstr("a+a/2.xml:2: <bug id='3'> does not match the file name"));
  }
  strict.strict = false;
  const DenchmarkImport lenient = import_denchmark(root_ / "Denchmark_BRs", strict);
  EXPECT_EQ(lenient.bugs.size(), 1u);
  EXPECT_EQ(lenient.skipped_reports, 1u);
  EXPECT_EQ(lenient.bugs[0].category, "Tool");
}

TEST_F(DenchmarkTree, RejectsADirectoryWithoutReports) {
  EXPECT_THROW(import_denchmark(root_), Error);
}

TEST_F(DenchmarkTree, ReportCsvRejectsFlagsOtherThanOAndX) {
  write("report.csv", "project,python\na+a,yes\n");
  try {
    read_denchmark_report_csv(root_ / "report.csv");
    FAIL();
  } catch (const Error& error) {
    EXPECT_THAT(std::string(error.what()), HasSubstr("report.csv:2: column python: expected O or X"));
  }
}

}  // namespace
}  // namespace dlfl::eval
