// Tests for the manifest (JSON Lines): the documented line shape, a lossless round trip,
// and errors that name the line.
#include "dlfl/lab/eval/bugset_manifest.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

using ::testing::HasSubstr;

BugReport sample_bug() {
  BugReport bug;
  bug.id = "o+r#12";
  bug.project = "o+r";
  bug.number = "12";
  bug.category = "Engine";
  bug.languages = {"c++", "python"};
  bug.dl_frameworks = {"torch"};
  bug.title = "NaN \"loss\"";
  bug.body = "line 1\nline 2 \xC3\xA9";
  bug.opened = "2020-01-01T00:00:00Z";
  bug.closed = "2020-01-02T00:00:00Z";
  bug.fix_commit = "abc123";
  bug.fix_date = "2020-01-02 01:00:00+01:00";
  FileChange kernel{"src/k.cu", "src/k.cu", ChangeType::modify, {3, 9}, {3}, {}};
  kernel.methods.push_back({"k::run", "n,x", 2, 10, {3, 9}, {3}});
  bug.files = {kernel, {"", "tests/t.py", ChangeType::add, {}, {}, {}}};
  bug.labels = BugLabels{{true, "GPU", true}, {true, "GPU", std::nullopt}, {true, "GPU", std::nullopt}};
  return bug;
}

TEST(BugsetManifest, LineHasTheDocumentedShape) {
  BugReport bug = sample_bug();
  bug.files[0].methods.clear();
  bug.labels.reset();
  bug.body = "b";
  EXPECT_EQ(manifest_line(bug),
            R"({"id":"o+r#12","project":"o+r","number":"12","category":"Engine",)"
            R"("languages":["c++","python"],"dl_frameworks":["torch"],"title":"NaN \"loss\"","body":"b",)"
            R"("opened":"2020-01-01T00:00:00Z","closed":"2020-01-02T00:00:00Z","fix_commit":"abc123",)"
            R"("fix_date":"2020-01-02 01:00:00+01:00","change_types":["ADD","MODIFY"],"files":[)"
            R"({"old_name":"src/k.cu","new_name":"src/k.cu","change_type":"MODIFY","deleted_lines":[3,9],)"
            R"("added_lines":[3],"methods":[]},)"
            R"({"old_name":null,"new_name":"tests/t.py","change_type":"ADD","deleted_lines":[],)"
            R"("added_lines":[],"methods":[]}]})");
}

TEST(BugsetManifest, RoundTripIsLossless) {
  const std::vector<BugReport> bugs = {sample_bug(), []() {
                                         BugReport other;
                                         other.id = "o+r#13";
                                         other.project = "o+r";
                                         return other;
                                       }()};
  std::stringstream stream;
  write_manifest(stream, bugs);
  const std::vector<BugReport> back = read_manifest(stream, "m.jsonl");
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t k = 0; k < bugs.size(); ++k) EXPECT_EQ(manifest_line(back[k]), manifest_line(bugs[k]));
  EXPECT_EQ(back[0].files[0].methods.at(0).end_line, 10u);
  EXPECT_EQ(back[0].labels->second.extrinsic, std::nullopt);
  EXPECT_EQ(back[0].body, "line 1\nline 2 \xC3\xA9");
}

TEST(BugsetManifest, ReaderNormalizesLinesAndAcceptsMinimalEntries) {
  std::istringstream in(
      "\n"
      R"({"id":"a#1","project":"a","files":[{"old_name":"x.c","new_name":"x.c","change_type":"MODIFY",)"
      R"("deleted_lines":[9,3,9]}]})"
      "\r\n");
  const std::vector<BugReport> bugs = read_manifest(in, "m.jsonl");
  ASSERT_EQ(bugs.size(), 1u);
  EXPECT_EQ(bugs[0].files[0].deleted_lines, (std::vector<std::uint32_t>{3, 9}));
  EXPECT_FALSE(bugs[0].labels.has_value());
}

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    read_manifest(in, "m.jsonl");
    return {};
  } catch (const Error& error) {
    return error.what();
  }
}

TEST(BugsetManifest, ErrorsNameFileAndLine) {
  const std::string good = R"({"id":"a#1","project":"a","files":[]})";
  EXPECT_EQ(error_of(good + "\n"), "");
  EXPECT_THAT(error_of(good + "\n{\"id\":"), HasSubstr("m.jsonl:2: invalid JSON"));
  EXPECT_EQ(error_of(R"({"project":"a","files":[]})"), "m.jsonl:1: missing member \"id\"");
  EXPECT_EQ(error_of(R"({"id":"a#1","project":"a"})"), "m.jsonl:1: missing member \"files\"");
  EXPECT_EQ(error_of(good + "\n" + good), "m.jsonl:2: duplicate id \"a#1\"");
  EXPECT_EQ(error_of(R"({"id":"a#1","project":"a","files":[{"old_name":"x","new_name":"x","change_type":"MOVE"}]})"),
            "m.jsonl:1: unknown change_type \"MOVE\"");
  EXPECT_THAT(error_of(R"({"id":"a#1","project":"a","files":[{"new_name":"x","change_type":"ADD","added_lines":[0]}]})"),
              HasSubstr("m.jsonl:1: member \"added_lines\" holds 0, not a line number"));
  EXPECT_THAT(error_of(R"({"id":"a#1","project":"a","files":[{"new_name":"x","change_type":"ADD","added_lines":[-2]}]})"),
              HasSubstr("not a line number"));
  EXPECT_EQ(error_of(R"({"id":7,"project":"a","files":[]})"), "m.jsonl:1: member \"id\" is not a string");
  EXPECT_EQ(error_of("[1]"), "m.jsonl:1: a manifest line must be a JSON object");
  // Issue #14: a number beyond a double escaped as nlohmann's out_of_range (exit 1).
  EXPECT_THAT(error_of(R"({"id":"a#1","project":"a","files":[],"x":1e400})"), HasSubstr("m.jsonl:1: invalid JSON"));
  // A BOM before the first line is not JSON but is skipped like in every text reader.
  EXPECT_EQ(error_of("\xEF\xBB\xBF" + good + "\n"), "");
}

// A manifest is third-party data: its names become directories, command-line words and
// paths that are checked out or removed.
TEST(BugsetManifest, HostileIdsProjectsAndPathsAreRefusedNamingTheBugAndTheField) {
  const auto line = [](const std::string& id, const std::string& project, const std::string& file_member) {
    return R"({"id":")" + id + R"(","project":")" + project + R"(","files":[{)" + file_member + "}]}";
  };
  const std::string ok_file = R"("old_name":"src/a.cpp","new_name":"src/a.cpp","change_type":"MODIFY")";
  EXPECT_EQ(error_of(line("o+r#1", "o+r", ok_file)), "");
  EXPECT_EQ(error_of(line("yaml_cpp-3", "yaml_cpp", ok_file)), "");
  EXPECT_THAT(error_of(line("x#1", "x$(touch /tmp/p)+calc", ok_file)),
              HasSubstr("m.jsonl:1: bug x#1: \"project\" \"x$(touch /tmp/p)+calc\" is not a project name"));
  EXPECT_THAT(error_of(line("x#1", "../../../escaped+calc", ok_file)), HasSubstr("is not a project name"));
  EXPECT_THAT(error_of(line("x#1", "..", ok_file)), HasSubstr("is not a project name"));
  // owner+repo is looked up as the clone owner/repo: no part of it may climb out.
  EXPECT_THAT(error_of(line("x#1", "x+..", ok_file)), HasSubstr("\"project\" \"x+..\" is not a project name"));
  EXPECT_THAT(error_of(line("x#1", "x..y+z", ok_file)), HasSubstr("is not a project name"));
  EXPECT_THAT(error_of(line("o+r#..", "o+r", ok_file)), HasSubstr("is not a bug id"));
  EXPECT_EQ(error_of(line("o.r+x.y#1", "o.r+x.y", ok_file)), "");
  EXPECT_THAT(error_of(line("x#1", "a b", ok_file)), HasSubstr("is not a project name"));
  EXPECT_THAT(error_of(line("../x#1", "o+r", ok_file)), HasSubstr("m.jsonl:1: \"id\" \"../x#1\" is not a bug id"));
  EXPECT_THAT(error_of(line("x#1;rm", "o+r", ok_file)), HasSubstr("is not a bug id"));
  const std::string deleted = R"("old_name":"tests/../../../home/u/notes_test.txt","change_type":"DELETE")";
  EXPECT_THAT(error_of(line("o+r#1", "o+r", deleted)),
              HasSubstr("m.jsonl:1: bug o+r#1: \"files\" entry \"old_name\" has a \"..\" component"));
  EXPECT_THAT(error_of(line("o+r#1", "o+r", R"("old_name":"/home/u/tests/notes_test.txt","change_type":"DELETE")")),
              HasSubstr("bug o+r#1: \"files\" entry \"old_name\" is absolute"));
  EXPECT_THAT(error_of(line("o+r#1", "o+r", R"("new_name":"tests//a_test.cpp","change_type":"ADD")")),
              HasSubstr("\"new_name\" has an empty component"));
  EXPECT_THAT(error_of(line("o+r#1", "o+r", R"("new_name":"tests/a\n_test.cpp","change_type":"ADD")")),
              HasSubstr("\"new_name\" holds a control character"));
}

}  // namespace
}  // namespace dlfl::eval
